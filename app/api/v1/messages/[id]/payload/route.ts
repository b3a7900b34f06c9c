import { ignoreBody, noContent } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { otherMethods } from "@/lib/http/methods";
import { MESSAGE } from "@/lib/openapi/params";
import { expungePayload } from "@/lib/retention/expunge-payload";

export const DELETE = withApi(async ({ req, params, ctx }) => {
  await ignoreBody(req);
  await expungePayload({ ctx, messageId: params.id! });
  return noContent();
}, {
  portal: false,
  role: "write",
  doc: {
    operationId: "expungeMessagePayload",
    summary: "Delete a message's payload",
    description:
      "The payload's bytes are overwritten; the message and its delivery log stay, and GET /messages/{id} answers `payload: null` with `payload_expunged_at`. " +
      "Nothing can send the message again: a delivery still pending is canceled (`last_error: payload_expunged`), a queued resend or recovery item is dropped " +
      "(the recovery skips it, `payload_expired`), and a resend is refused with 409 `payload_expunged`. An attempt already on its way finishes. Audited.",
    tag: "Messages",
    params: MESSAGE,
    success: { status: 204, description: "The payload is gone." },
    errors: { 404: "`not_found`: no such message.", 409: "`payload_expunged`: its payload was expunged already." },
  },
});

export const { GET, HEAD, POST, PUT, PATCH, OPTIONS } = otherMethods({ DELETE });

import { SendTestInput } from "@/lib/endpoints";
import { sendTestMessage } from "@/lib/messages";
import { otherMethods } from "@/lib/http/methods";
import { json, parseOptionalBody } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { ENDPOINT } from "@/lib/openapi/params";
import { TestQueued } from "@/lib/endpoints/schemas";

export const POST = withApi(async ({ req, params, ctx }) =>
  json(await sendTestMessage({ ctx, id: params.id!, input: await parseOptionalBody(req, SendTestInput) }), 202), {
  portal: "manage_endpoints",
  role: "write",
  doc: {
    operationId: "sendTestMessage",
    summary: "Send a test message to one endpoint",
    description:
      "A real message, in the log like any other, delivered through the queue to this endpoint only (whatever event types it filters on), signed like any other and marked with the header `webhook-test: true`. Without `payload`, the event type's `example`; without `event_type`, the endpoint's first event type or `webhook.test`. Each endpoint takes at most `ENDPOINT_TEST_SENDS_PER_MINUTE` (default 10) a minute; more are 429 with `Retry-After`.",
    tag: "Endpoints",
    params: ENDPOINT,
    body: { schema: SendTestInput, required: false },
    success: { status: 202, description: "The message is queued; follow it with GET /messages/{id}/attempts.", schema: TestQueued },
    errors: { 409: "`invalid_state`: the endpoint is disabled." },
  },
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });

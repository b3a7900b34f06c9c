import { ignoreBody, noContent } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { otherMethods } from "@/lib/http/methods";
import { endOwnSession } from "@/lib/operator-sessions";
import { OWN_ONLY } from "@/lib/operator-sessions/openapi";

export const DELETE = withApi(async ({ req, params, ctx }) => {
  await ignoreBody(req);
  await endOwnSession({ ctx, id: params.id! });
  return noContent();
}, {
  portal: false,
  role: "own",
  doc: {
    operationId: "endOwnSession",
    summary: "End one of your sessions",
    description: "Its next request is refused; ending the `current` one signs this browser out. " + OWN_ONLY,
    tag: "Sessions",
    params: { id: "The session's id (`ses_…`)." },
    success: { status: 204, description: "Ended." },
    errors: { 403: "`forbidden`: not a dashboard session.", 404: "`not_found`: no open session of yours has this id." },
  },
});

export const { GET, HEAD, POST, PUT, PATCH, OPTIONS } = otherMethods({ DELETE });

import { ignoreBody, json } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { otherMethods } from "@/lib/http/methods";
import { EndedSessions, endOperatorSessions, listOperatorSessions, OperatorSessionList } from "@/lib/operator-sessions";

const ADMIN_SESSION_ONLY = "`forbidden`: only an admin's dashboard session sees and ends other operators' sessions (not an API key).";
const OPERATOR = { id: "The operator's id (`op_…`)." };

export const GET = withApi(async ({ params, ctx }) => json(await listOperatorSessions(ctx, params.id!)), {
  portal: false,
  role: "admin",
  apiKey: false,
  doc: {
    operationId: "listOperatorSessions",
    summary: "List an operator's sessions",
    description: "An admin's view of another operator's open dashboard sessions (an admin's dashboard session only).",
    tag: "Sessions",
    params: OPERATOR,
    success: { status: 200, description: "Their open sessions, most recently seen first.", schema: OperatorSessionList },
    errors: { 403: ADMIN_SESSION_ONLY },
  },
});

export const DELETE = withApi(async ({ req, params, ctx }) => {
  await ignoreBody(req);
  return json(await endOperatorSessions({ ctx, operatorId: params.id! }));
}, {
  portal: false,
  role: "admin",
  apiKey: false,
  doc: {
    operationId: "endOperatorSessions",
    summary: "End all of an operator's sessions",
    description: "Each one's next request is refused; they sign in again. Audited (`operator.sessions_ended`).",
    tag: "Sessions",
    params: OPERATOR,
    success: { status: 200, description: "How many sessions were ended.", schema: EndedSessions },
    errors: { 403: ADMIN_SESSION_ONLY },
  },
});

export const { POST, PUT, PATCH, OPTIONS } = otherMethods({ GET, DELETE });

import { json } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { otherMethods } from "@/lib/http/methods";
import { listOwnSessions, OperatorSessionList } from "@/lib/operator-sessions";
import { OWN_ONLY } from "@/lib/operator-sessions/openapi";

export const GET = withApi(async ({ ctx }) => json(await listOwnSessions(ctx)), {
  portal: false,
  role: "own",
  doc: {
    operationId: "listOwnSessions",
    summary: "List your sessions",
    description: "The signed-in operator's open dashboard sessions, most recently seen first, the one asking marked `current`. " + OWN_ONLY,
    tag: "Sessions",
    success: { status: 200, description: "Every open session (they end within OPERATOR_SESSION_TTL, so the list is short).", schema: OperatorSessionList },
    errors: { 403: "`forbidden`: not a dashboard session." },
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });

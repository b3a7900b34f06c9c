import { ignoreBody, json } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { otherMethods } from "@/lib/http/methods";
import { EndedSessions, endOtherSessions } from "@/lib/operator-sessions";
import { OWN_ONLY } from "@/lib/operator-sessions/openapi";

export const POST = withApi(async ({ req, ctx }) => {
  await ignoreBody(req);
  return json(await endOtherSessions({ ctx }));
}, {
  portal: false,
  role: "own",
  doc: {
    operationId: "endOtherSessions",
    summary: "Sign out everywhere else",
    description: "Ends every open session of the signed-in operator but the one asking. " + OWN_ONLY,
    tag: "Sessions",
    success: { status: 200, description: "How many sessions were ended.", schema: EndedSessions },
    errors: { 403: "`forbidden`: not a dashboard session." },
  },
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });

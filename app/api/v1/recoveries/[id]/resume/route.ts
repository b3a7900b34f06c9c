import { resumeRecovery } from "@/lib/recoveries";
import { ignoreBody, json } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { otherMethods } from "@/lib/http/methods";
import { RECOVERY } from "@/lib/openapi/params";
import { Recovery } from "@/lib/recoveries/schemas";

export const POST = withApi(async ({ req, params, ctx }) => {
  await ignoreBody(req);
  return json(await resumeRecovery({ ctx, id: params.id! }));
}, {
  portal: "recover",
  role: "write",
  doc: {
    operationId: "resumeRecovery",
    summary: "Resume a paused recovery",
    tag: "Recoveries",
    params: RECOVERY,
    success: { status: 200, description: "The recovery, resumed.", schema: Recovery },
    errors: { 409: "`invalid_state`: the recovery's state does not allow this move." },
  },
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });

import { getRecovery } from "@/lib/recoveries";
import { json } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { otherMethods } from "@/lib/http/methods";
import { RECOVERY } from "@/lib/openapi/params";
import { Recovery } from "@/lib/recoveries/schemas";

export const GET = withApi(async ({ params, ctx }) => json(await getRecovery(ctx, params.id!)), {
  portal: "scoped",
  role: "read",
  doc: {
    operationId: "getRecovery",
    summary: "Get a recovery and its counts",
    tag: "Recoveries",
    params: RECOVERY,
    success: { status: 200, description: "The recovery.", schema: Recovery },
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });

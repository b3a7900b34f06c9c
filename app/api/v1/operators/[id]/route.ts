import { ignoreBody, noContent } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { deleteOperator } from "@/lib/operators";
import { otherMethods } from "@/lib/http/methods";

const ADMIN_ONLY = "`forbidden`: only an admin (or an API key) manages operators.";

export const DELETE = withApi(async ({ req, params, ctx }) => {
  await ignoreBody(req);
  await deleteOperator({ ctx, id: params.id! });
  return noContent();
}, {
  portal: false,
  role: "admin",
  doc: {
    operationId: "deleteOperator",
    summary: "Remove an operator",
    description: "Their sessions end at once. Nobody removes themselves, and the last admin stays.",
    tag: "Operators",
    params: { id: "The operator's id (`op_…`)." },
    success: { status: 204, description: "Removed." },
    errors: { 403: ADMIN_ONLY, 409: "`cannot_remove_self` or `last_admin`." },
  },
});

export const { GET, HEAD, POST, PUT, PATCH, OPTIONS } = otherMethods({ DELETE });

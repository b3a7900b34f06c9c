import { ignoreBody, noContent } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { otherMethods } from "@/lib/http/methods";
import { resetTwoFactor } from "@/lib/two-factor";

export const DELETE = withApi(async ({ req, params, ctx }) => {
  await ignoreBody(req);
  await resetTwoFactor({ ctx, operatorId: params.id! });
  return noContent();
}, {
  portal: false,
  role: "admin",
  doc: {
    operationId: "resetOperatorTwoFactor",
    summary: "Reset an operator's second factor",
    description:
      "Removes their TOTP factor and recovery codes (a lost phone): they sign in with their password alone and enroll again — at once, where a second factor is required of everyone. Audited (`operator.two_factor_reset`).",
    tag: "Two-factor",
    params: { id: "The operator's id (`op_…`)." },
    success: { status: 204, description: "Reset (also when there was no factor)." },
    errors: { 403: "`forbidden`: only an admin (or an API key) resets a factor." },
  },
});

export const { GET, HEAD, POST, PUT, PATCH, OPTIONS } = otherMethods({ DELETE });

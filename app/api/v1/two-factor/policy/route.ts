import { json, parseBody } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { otherMethods } from "@/lib/http/methods";
import { getTwoFactorPolicy, TwoFactorPolicy, updateTwoFactorPolicy, UpdateTwoFactorPolicyInput } from "@/lib/two-factor";

export const GET = withApi(async ({ ctx }) => json(await getTwoFactorPolicy(ctx)), {
  portal: false,
  role: "read",
  doc: {
    operationId: "getTwoFactorPolicy",
    summary: "Whether a second factor is required",
    tag: "Two-factor",
    success: { status: 200, description: "The policy.", schema: TwoFactorPolicy },
  },
});

export const PUT = withApi(async ({ req, ctx }) => json(await updateTwoFactorPolicy({ ctx, input: await parseBody(req, UpdateTwoFactorPolicyInput) })), {
  portal: false,
  role: "admin",
  doc: {
    operationId: "updateTwoFactorPolicy",
    summary: "Require a second factor of everyone",
    description:
      "With `required`, an operator without a confirmed factor is sent to enroll after sign-in and can use nothing but their own account's routes until enrolled. Audited (`settings.two_factor_policy_changed`).",
    tag: "Two-factor",
    body: { schema: UpdateTwoFactorPolicyInput },
    success: { status: 200, description: "The policy now.", schema: TwoFactorPolicy },
    errors: { 403: "`forbidden`: only an admin (or an API key) changes it." },
  },
});

export const { POST, PATCH, DELETE, OPTIONS } = otherMethods({ GET, PUT });

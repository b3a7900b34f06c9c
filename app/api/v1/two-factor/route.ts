import { json } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { otherMethods } from "@/lib/http/methods";
import { twoFactorStatus, TwoFactorStatus } from "@/lib/two-factor";
import { OWN_ONLY } from "@/lib/operator-sessions/openapi";

export const GET = withApi(async ({ ctx }) => json(await twoFactorStatus(ctx)), {
  portal: false,
  role: "own",
  doc: {
    operationId: "getTwoFactor",
    summary: "Your second factor",
    description: "Whether the signed-in operator has a TOTP factor, how many recovery codes are left, and whether one is required of everyone. " + OWN_ONLY,
    tag: "Two-factor",
    success: { status: 200, description: "The factor's state (never its secret).", schema: TwoFactorStatus },
    errors: { 403: "`forbidden`: not a dashboard session." },
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });

import { json, parseBody } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { otherMethods } from "@/lib/http/methods";
import { confirmEnrollment, ConfirmTwoFactorInput, RecoveryCodes } from "@/lib/two-factor";
import { OWN_ONLY } from "@/lib/operator-sessions/openapi";

export const POST = withApi(async ({ req, ctx }) => json(await confirmEnrollment({ ctx, input: await parseBody(req, ConfirmTwoFactorInput) })), {
  portal: false,
  role: "own",
  doc: {
    operationId: "confirmTwoFactorEnrollment",
    summary: "Confirm a second factor",
    description:
      "A code from the app proves it holds the secret; the factor is on from now: password and link sign-ins ask for a code. Answers ten one-time recovery codes, shown this once (only their hashes are kept). Audited (`operator.two_factor_enabled`). " +
      OWN_ONLY,
    tag: "Two-factor",
    body: { schema: ConfirmTwoFactorInput },
    success: { status: 200, description: "The recovery codes.", schema: RecoveryCodes },
    errors: { 403: "`forbidden`: not a dashboard session.", 422: "`validation_failed`: the code does not match (or no enrollment was started)." },
  },
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });

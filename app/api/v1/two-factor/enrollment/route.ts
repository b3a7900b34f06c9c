import { ignoreBody, json } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { otherMethods } from "@/lib/http/methods";
import { startEnrollment, TwoFactorEnrollment } from "@/lib/two-factor";
import { OWN_ONLY } from "@/lib/operator-sessions/openapi";

export const POST = withApi(async ({ req, ctx }) => {
  await ignoreBody(req);
  return json(await startEnrollment({ ctx }), 201);
}, {
  portal: false,
  role: "own",
  doc: {
    operationId: "startTwoFactorEnrollment",
    summary: "Start enrolling a second factor",
    description:
      "A new TOTP secret for an authenticator app, as a QR code and as text — in this answer only; it is kept sealed with ENCRYPTION_KEY. Nothing changes at sign-in until a code from it is confirmed; starting again replaces an unconfirmed secret. " +
      OWN_ONLY,
    tag: "Two-factor",
    success: { status: 201, description: "The secret, its otpauth URI and that URI as a QR code (SVG).", schema: TwoFactorEnrollment },
    errors: { 403: "`forbidden`: not a dashboard session.", 409: "`two_factor_enabled`: a factor is enabled already; an admin can reset it." },
  },
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });

import { z } from "zod";

export const TwoFactorStatus = z.object({
  /** A factor confirmed: password sign-in asks for a code. */
  enabled: z.boolean(),
  enabled_at: z.string().nullable(),
  recovery_codes_left: z.number().int(),
  /** An admin requires a second factor of every operator. */
  required: z.boolean(),
});
export type TwoFactorStatus = z.infer<typeof TwoFactorStatus>;

export const TwoFactorEnrollment = z.object({
  /** Base32, for typing into an app by hand; shown now, during enrollment, and never again. */
  secret: z.string(),
  otpauth_uri: z.string(),
  /** The otpauth URI as a QR code, an SVG document. */
  qr_svg: z.string(),
});
export type TwoFactorEnrollment = z.infer<typeof TwoFactorEnrollment>;

export const ConfirmTwoFactorInput = z.strictObject({ code: z.string().trim().max(20) });
export type ConfirmTwoFactorInput = z.input<typeof ConfirmTwoFactorInput>;

export const RecoveryCodes = z.object({
  /** Ten one-time codes, each usable once instead of an app's code; shown only in this answer. */
  recovery_codes: z.array(z.string()),
});
export type RecoveryCodes = z.infer<typeof RecoveryCodes>;

export const TwoFactorPolicy = z.object({ required: z.boolean() });
export type TwoFactorPolicy = z.infer<typeof TwoFactorPolicy>;

export const UpdateTwoFactorPolicyInput = z.strictObject({ required: z.boolean() });
export type UpdateTwoFactorPolicyInput = z.input<typeof UpdateTwoFactorPolicyInput>;

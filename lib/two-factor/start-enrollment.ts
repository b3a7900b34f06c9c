import QRCode from "qrcode";
import { encrypt } from "../crypto/encryption";
import type { Ctx } from "../context";
import { operatorTwoFactor, operators } from "../db/schema";
import { ConflictError, NotFoundError } from "../errors";
import { eq, sql } from "drizzle-orm";
import { ownOperator } from "../operator-sessions/own-operator";
import { twoFactorRow } from "./queries";
import type { TwoFactorEnrollment } from "./schemas";
import { newTotpSecret, totpUri } from "./totp";

/**
 * Starts (or starts over) the signed-in operator's enrollment: a new secret, sealed like a signing
 * secret, kept unconfirmed until a code from it is confirmed. The secret is in this answer and no
 * other. A confirmed factor is not replaced this way — an admin resets it first — so a borrowed
 * session cannot move someone's factor to another phone.
 */
export async function startEnrollment({ ctx }: { ctx: Ctx }): Promise<TwoFactorEnrollment> {
  const me = ownOperator(ctx);
  if ((await twoFactorRow(ctx, me.id))?.confirmedAt) {
    throw new ConflictError("two_factor_enabled", "A second factor is enabled already; an admin can reset it.");
  }
  const [operator] = await ctx.db.select({ email: operators.email }).from(operators).where(eq(operators.id, me.id)).limit(1);
  if (!operator) throw new NotFoundError("operator", me.id);
  const secret = newTotpSecret();
  const sealed = encrypt(secret, ctx.config.ENCRYPTION_KEY);
  // Only an unconfirmed row is replaced: a confirmation racing this keeps its factor.
  const written = await ctx.db
    .insert(operatorTwoFactor)
    .values({ operatorId: me.id, secretCiphertext: sealed.ciphertext, keyId: sealed.keyId })
    .onConflictDoUpdate({
      target: operatorTwoFactor.operatorId,
      set: { secretCiphertext: sealed.ciphertext, keyId: sealed.keyId, createdAt: sql`now()`, lastStep: null },
      setWhere: sql`${operatorTwoFactor.confirmedAt} is null`,
    })
    .returning({ id: operatorTwoFactor.operatorId });
  if (written.length === 0) throw new ConflictError("two_factor_enabled", "A second factor is enabled already; an admin can reset it.");
  const uri = totpUri(secret, operator.email);
  return { secret, otpauth_uri: uri, qr_svg: await QRCode.toString(uri, { type: "svg", margin: 1, errorCorrectionLevel: "M" }) };
}

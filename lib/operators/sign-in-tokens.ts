import type { Ctx } from "../context";
import { and, eq, isNull, lt } from "drizzle-orm";
import { operators, signInTokens } from "../db/schema";
import { clearSignInAttempts, normalizeSignInEmail } from "./count-sign-in-attempt";
import { toOperator, type Operator } from "./schemas";

/** An operator who may sign in (not disabled) by email, case-insensitive. */
export async function findOperatorByEmail(ctx: Ctx, email: string): Promise<Operator | null> {
  const { db } = ctx;
  const [row] = await db.select().from(operators).where(and(eq(operators.email, normalizeSignInEmail(email)), isNull(operators.disabledAt))).limit(1);
  return row ? toOperator(row) : null;
}

/**
 * Keeps a sign-in link's token (its hash: the caller never passes the token itself) — only for an
 * existing operator, so asking for a link for any other address leaves nothing behind. Expired
 * ones are pruned as new ones arrive.
 */
export async function storeSignInToken({ ctx, input }: { ctx: Ctx; input: { email: string; tokenHash: string; expiresAt: Date } }): Promise<boolean> {
  const { db } = ctx;
  await db.delete(signInTokens).where(lt(signInTokens.expiresAt, new Date()));
  if (!(await findOperatorByEmail(ctx, input.email))) return false;
  await db.insert(signInTokens).values({ tokenHash: input.tokenHash, email: normalizeSignInEmail(input.email), expiresAt: input.expiresAt });
  return true;
}

/**
 * Uses a sign-in link's token: the row is deleted whatever its age, so a link works once. Returns
 * it when it was there (the caller checks its expiry); a use that signs in clears the email's
 * count of password attempts, as a right password does.
 */
export async function consumeSignInToken({ ctx, input }: { ctx: Ctx; input: { email: string | undefined; tokenHash: string } }) {
  const { db } = ctx;
  const [row] = await db
    .delete(signInTokens)
    .where(and(eq(signInTokens.tokenHash, input.tokenHash), input.email ? eq(signInTokens.email, normalizeSignInEmail(input.email)) : undefined))
    .returning();
  if (!row) return null;
  if (row.expiresAt.getTime() > Date.now()) await clearSignInAttempts({ ctx, email: row.email });
  return { email: row.email, expiresAt: row.expiresAt };
}

import { eq } from "drizzle-orm";
import type { Ctx } from "../context";
import { operatorTwoFactor } from "../db/schema";
import { ownOperator } from "../operator-sessions/own-operator";
import { twoFactorRequired } from "./policy";
import type { TwoFactorStatus } from "./schemas";

/** The operator's factor row, confirmed or in enrollment; null when there is none. */
export async function twoFactorRow(ctx: Ctx, operatorId: string) {
  const [row] = await ctx.db.select().from(operatorTwoFactor).where(eq(operatorTwoFactor.operatorId, operatorId)).limit(1);
  return row ?? null;
}

/** Whether password and link sign-ins must also take a code from this operator. */
export async function hasSecondFactor(ctx: Ctx, operatorId: string): Promise<boolean> {
  return Boolean((await twoFactorRow(ctx, operatorId))?.confirmedAt);
}

export async function twoFactorStatus(ctx: Ctx): Promise<TwoFactorStatus> {
  const me = ownOperator(ctx);
  const row = await twoFactorRow(ctx, me.id);
  const enabledAt = row?.confirmedAt ?? null;
  return {
    enabled: enabledAt !== null,
    enabled_at: enabledAt?.toISOString() ?? null,
    recovery_codes_left: enabledAt ? row!.recoveryCodeHashes.length : 0,
    required: await twoFactorRequired(ctx),
  };
}

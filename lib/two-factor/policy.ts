import { sql } from "drizzle-orm";
import { recordAuditEvent } from "../audit/record-audit-event";
import { inTransaction, type Ctx } from "../context";
import { dashboardSettings } from "../db/schema";
import { ValidationError } from "../errors";
import { UpdateTwoFactorPolicyInput, type TwoFactorPolicy } from "./schemas";

/** Whether every operator must have a second factor (dashboard_settings; its one row made by migration 0032). */
export async function twoFactorRequired(ctx: Ctx): Promise<boolean> {
  const [row] = await ctx.db.select({ required: dashboardSettings.requireTwoFactor }).from(dashboardSettings).limit(1);
  return row?.required ?? false;
}

export async function getTwoFactorPolicy(ctx: Ctx): Promise<TwoFactorPolicy> {
  return { required: await twoFactorRequired(ctx) };
}

/**
 * An admin requires a second factor of everyone, or stops requiring it: audited. Operators without
 * one are sent to enroll on their next request (lib/operator-sessions/session-standing.ts).
 */
export async function updateTwoFactorPolicy({ ctx, input }: { ctx: Ctx; input: UpdateTwoFactorPolicyInput }): Promise<TwoFactorPolicy> {
  const parsed = UpdateTwoFactorPolicyInput.safeParse(input);
  if (!parsed.success) throw new ValidationError("Invalid policy.", parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })));
  const { required } = parsed.data;
  return inTransaction(ctx, async (tx) => {
    await tx.db
      .insert(dashboardSettings)
      .values({ id: true, requireTwoFactor: required })
      .onConflictDoUpdate({ target: dashboardSettings.id, set: { requireTwoFactor: sql`excluded.require_two_factor` } });
    await recordAuditEvent(tx, { action: "settings.two_factor_policy_changed", targetType: "settings", targetId: "two_factor", data: { required } });
    return { required };
  });
}

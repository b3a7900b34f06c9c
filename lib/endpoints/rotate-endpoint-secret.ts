import { insertAuditEvent } from "../audit/insert-audit-event";
import { and, eq, isNull } from "drizzle-orm";
import { getConfig } from "../config";
import type { Ctx } from "../context";
import { endpointSecrets } from "../db/schema";
import { findEndpointRow } from "./queries";
import { checkSecret, storeSecret } from "./secrets";

/**
 * A new current secret; the previous one keeps signing beside it for SECRET_ROTATION_OVERLAP so
 * receivers can switch without dropping a delivery. Earlier rotated keys keep their own expiry.
 */
export async function rotateEndpointSecret({ ctx, id, key }: { ctx: Ctx; id: string; key?: string }) {
  const secret = checkSecret(key);
  await ctx.db.transaction(async (tx) => {
    await findEndpointRow(ctx, id, tx);
    await tx
      .update(endpointSecrets)
      .set({ expiresAt: new Date(Date.now() + getConfig().SECRET_ROTATION_OVERLAP) })
      .where(and(eq(endpointSecrets.endpointId, id), isNull(endpointSecrets.expiresAt)));
    await storeSecret(tx, id, secret);
    await insertAuditEvent(tx, { actor: ctx.actor, action: "endpoint.secret_rotated", targetType: "endpoint", targetId: id });
  });
  return { key: secret };
}

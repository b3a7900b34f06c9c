import { recordAuditEvent } from "../audit/record-audit-event";
import { and, eq, isNull } from "drizzle-orm";
import { inTransaction, type Ctx } from "../context";
import { endpointSecrets } from "../db/schema";
import { findEndpointRow } from "./queries";
import { checkSecret, storeSecret } from "./secrets";

/**
 * A new current secret; the previous one keeps signing beside it for `graceSeconds` (default
 * SECRET_ROTATION_OVERLAP) so receivers can switch without dropping a delivery; 0 retires it at
 * once. Earlier rotated keys keep their own expiry.
 */
export async function rotateEndpointSecret({ ctx, id: ref, key, graceSeconds }: { ctx: Ctx; id: string; key?: string; graceSeconds?: number }) {
  const secret = checkSecret(key);
  const graceMs = graceSeconds !== undefined ? graceSeconds * 1000 : ctx.config.SECRET_ROTATION_OVERLAP;
  await inTransaction(ctx, async (tx) => {
    const endpoint = await findEndpointRow(tx, ref);
    const { id } = endpoint;
    await tx.db
      .update(endpointSecrets)
      .set({ expiresAt: new Date(Date.now() + graceMs) })
      .where(and(eq(endpointSecrets.endpointId, id), isNull(endpointSecrets.expiresAt)));
    await storeSecret(tx, endpoint, secret);
    await recordAuditEvent(tx, { action: "endpoint.secret_rotated", targetType: "endpoint", targetId: id });
  });
  return { key: secret };
}

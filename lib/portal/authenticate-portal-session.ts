import type { Ctx } from "../context";
import { and, eq, gt } from "drizzle-orm";
import type { Actor } from "../context";
import { sha256Hex } from "../crypto/encryption";
import { portalSessions } from "../db/schema";
import { sessionPermissions } from "./capabilities";

export type PortalActor = Extract<Actor, { type: "portal" }>;

/**
 * The live session for a `ps_` bearer, or null. A revoked session's row is gone, and a deleted
 * consumer's sessions went with it (ON DELETE CASCADE), so both are simply unknown: 401.
 */
export async function authenticatePortalSession({ ctx, token }: { ctx: Ctx; token: string }): Promise<PortalActor | null> {
  const { db } = ctx;
  if (!token.startsWith("ps_") || token.length > 200) return null;
  const [row] = await db
    .select({ id: portalSessions.id, consumerId: portalSessions.consumerId, capabilities: portalSessions.capabilities, svix: portalSessions.svix })
    .from(portalSessions)
    .where(and(eq(portalSessions.tokenHash, sha256Hex(token)), gt(portalSessions.expiresAt, new Date())))
    .limit(1);
  if (!row) return null;
  const { svix, ...session } = row;
  return { type: "portal", ...session, capabilities: sessionPermissions(row.capabilities, svix !== null), ...(svix ? { svix } : {}) };
}

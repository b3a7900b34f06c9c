import { randomBytes } from "node:crypto";
import { recordAuditEvent } from "../audit/record-audit-event";
import { inTransaction, type Ctx } from "../context";
import { sha256Hex } from "../crypto/encryption";
import { portalTokens } from "../db/schema";
import { findConsumer } from "../consumers/queries";
import { newId } from "../ids";
import type { PortalPermission } from "./capabilities";
import { normalizeCapabilities, type CreatePortalLinkInput, type PortalLink } from "./schemas";

/**
 * A one-time link into the portal. The token rides in the URL's fragment, which browsers never send
 * to a server or put in a Referer; only its SHA-256 is stored. `svix`: the Svix API's link, with
 * what Svix's capabilities grant (lib/svix/portal-access.ts) in place of `input.capabilities`.
 */
export async function createPortalLink({
  ctx,
  ref,
  input,
  svix,
}: {
  ctx: Ctx;
  ref: string;
  input: CreatePortalLinkInput;
  svix?: { capabilities: PortalPermission[]; sessionId: string | null };
}): Promise<PortalLink> {
  const { config } = ctx;
  const consumer = await findConsumer(ctx, ref);
  const token = `pt_${randomBytes(32).toString("base64url")}`;
  const expiresAt = new Date(Date.now() + (input.ttl_seconds !== undefined ? input.ttl_seconds * 1000 : config.PORTAL_LINK_TTL));
  const capabilities: PortalPermission[] = svix ? svix.capabilities : normalizeCapabilities(input.capabilities);
  await inTransaction(ctx, async (tx) => {
    const id = newId("portalToken");
    await tx.db.insert(portalTokens).values({
      id,
      consumerId: consumer.id,
      tokenHash: sha256Hex(token),
      locale: input.locale ?? null,
      capabilities,
      theme: input.theme ?? {},
      sessionTtlSeconds: input.session_ttl_seconds ?? Math.round(config.PORTAL_SESSION_TTL / 1000),
      svix: svix !== undefined,
      svixSessionId: svix?.sessionId ?? null,
      expiresAt,
    });
    await recordAuditEvent(tx, {
      action: "portal_link.created",
      targetType: "consumer",
      targetId: consumer.id,
      data: { portal_token_id: id, capabilities, expires_at: expiresAt.toISOString() },
    });
  });
  return { url: `${config.APP_URL}/portal#token=${token}`, expires_at: expiresAt.toISOString() };
}

import { randomBytes } from "node:crypto";
import { recordAuditEvent } from "../audit/record-audit-event";
import { inTransaction, type Ctx } from "../context";
import { sha256Hex } from "../crypto/encryption";
import { POLLING_KIND } from "../destinations";
import { findEndpointRow } from "../endpoints/queries";
import { ConflictError, NotFoundError } from "../errors";
import { newId } from "../ids";
import type { CreatedPollToken } from "./schemas";

/** A poll token's prefix: the poll route tells it from an API key (`sk_`) or a portal session (`ps_`) by it. */
export const POLL_TOKEN_PREFIX = "ept_";

/** An endpoint that is read by polling, in the actor's scope; 409 for one of another kind. */
export async function findPollingEndpoint(ctx: Ctx, ref: string) {
  const endpoint = await findEndpointRow(ctx, ref);
  if (endpoint.destination !== POLLING_KIND) {
    throw new ConflictError("not_polling", `The endpoint's kind is ${endpoint.destination}: only a polling endpoint is read with poll tokens.`);
  }
  return endpoint;
}

/** A token that reads this one endpoint's messages (GET /endpoints/{id}/poll): stored as its hash, shown once. */
export async function createPollToken({ ctx, id }: { ctx: Ctx; id: string }): Promise<CreatedPollToken> {
  const endpoint = await findPollingEndpoint(ctx, id);
  const token = `${POLL_TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
  const tokenId = newId("pollToken");
  const createdAt = await inTransaction(ctx, async (tx) => {
    const [row] = await tx.sql<{ created_at: Date }[]>`
      insert into poll_tokens (id, endpoint_id, consumer_id, hash) values (${tokenId}, ${endpoint.id}, ${endpoint.consumerId}, ${sha256Hex(token)})
      returning created_at`;
    await recordAuditEvent(tx, { action: "endpoint.poll_token_created", targetType: "endpoint", targetId: endpoint.id, data: { token_id: tokenId } });
    return row!.created_at;
  });
  return { id: tokenId, token, created_at: createdAt.toISOString() };
}

/** Revokes one of the endpoint's poll tokens: a poll with it is 401 from then on. */
export async function deletePollToken({ ctx, id, tokenId }: { ctx: Ctx; id: string; tokenId: string }): Promise<void> {
  const endpoint = await findPollingEndpoint(ctx, id);
  await inTransaction(ctx, async (tx) => {
    const gone = await tx.sql`delete from poll_tokens where id = ${tokenId} and endpoint_id = ${endpoint.id}`;
    if (gone.count === 0) throw new NotFoundError("poll token", tokenId);
    await recordAuditEvent(tx, { action: "endpoint.poll_token_deleted", targetType: "endpoint", targetId: endpoint.id, data: { token_id: tokenId } });
  });
}

const TOUCH_EVERY = "1 minute";

/** The endpoint a poll token reads, or null for a token that is unknown or revoked. last_used_at is refreshed at most once a minute. */
export async function authenticatePollToken(ctx: Ctx, token: string): Promise<{ tokenId: string; endpointId: string } | null> {
  if (!token.startsWith(POLL_TOKEN_PREFIX) || token.length > 200) return null;
  const [row] = await ctx.sql<{ id: string; endpoint_id: string; stale: boolean }[]>`
    select id, endpoint_id, (last_used_at is null or last_used_at < now() - ${TOUCH_EVERY}::interval) as stale
    from poll_tokens where hash = ${sha256Hex(token)}`;
  if (!row) return null;
  if (row.stale) await ctx.sql`update poll_tokens set last_used_at = now() where id = ${row.id}`;
  return { tokenId: row.id, endpointId: row.endpoint_id };
}

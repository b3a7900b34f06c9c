import type { Ctx } from "../context";
import { sha256Hex } from "../crypto/encryption";

const TOUCH_EVERY = "1 minute";

/**
 * The active key for a bearer token, or null. last_used_at is refreshed at most once a minute.
 * Raw SQL: every API call runs this, and through drizzle it cost the process several times the CPU
 * of the same lookup through postgres.js, drizzle's query building being most of it (ADR 0037).
 */
export async function authenticateApiKey({ ctx, token }: { ctx: Ctx; token: string }): Promise<{ id: string; name: string } | null> {
  const { sql } = ctx;
  if (!token.startsWith("sk_") || token.length > 200) return null;
  // Stale by the database's clock, which also writes it: a web host whose clock runs ahead would
  // otherwise see every key stale and update (and lock) its row on every call.
  const [row] = await sql<{ id: string; name: string; stale: boolean }[]>`
    select id, name, (last_used_at is null or last_used_at < now() - ${TOUCH_EVERY}::interval) as stale
    from api_keys where hash = ${sha256Hex(token)} and revoked_at is null limit 1`;
  if (!row) return null;
  if (row.stale) {
    await sql`update api_keys set last_used_at = now()
      where id = ${row.id} and (last_used_at is null or last_used_at < now() - ${TOUCH_EVERY}::interval)`;
  }
  return { id: row.id, name: row.name };
}

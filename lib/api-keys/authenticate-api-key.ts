import type { Ctx } from "../context";
import { sha256Hex } from "../crypto/encryption";

const TOUCH_EVERY_MS = 60_000;

/**
 * The active key for a bearer token, or null. last_used_at is refreshed at most once a minute.
 * Raw SQL: every API call runs this, and through drizzle it cost 170 µs of the process's CPU a call
 * against 62 µs through postgres.js, drizzle's query building being most of it (bench/ingest-micro.ts).
 */
export async function authenticateApiKey(ctx: Ctx, token: string): Promise<{ id: string; name: string } | null> {
  const { sql } = ctx;
  if (!token.startsWith("sk_") || token.length > 200) return null;
  const [row] = await sql<{ id: string; name: string; last_used_at: Date | null }[]>`
    select id, name, last_used_at from api_keys where hash = ${sha256Hex(token)} and revoked_at is null limit 1`;
  if (!row) return null;
  if (!row.last_used_at || Date.now() - row.last_used_at.getTime() > TOUCH_EVERY_MS) {
    await sql`update api_keys set last_used_at = now()
      where id = ${row.id} and (last_used_at is null or last_used_at < ${new Date(Date.now() - TOUCH_EVERY_MS)}::timestamptz)`;
  }
  return { id: row.id, name: row.name };
}

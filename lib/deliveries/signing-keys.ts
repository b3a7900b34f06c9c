import { decrypt } from "../crypto/encryption";
import type { Sql } from "../db/client";
import { decryptionKeys } from "../endpoints/secrets";

// Ciphertext → plaintext. A ciphertext is immutable, so caching it can never serve a stale secret;
// which secrets are active is still read from the database for every batch.
const cache = new Map<string, string>();
const CACHE_LIMIT = 10_000;

function decryptCached(ciphertext: string): string {
  let secret = cache.get(ciphertext);
  if (secret === undefined) {
    secret = decrypt(ciphertext, decryptionKeys());
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(ciphertext, secret);
  }
  return secret;
}

/** The signing secrets of each endpoint right now: the current one and any still in rotation overlap. */
export async function activeSecretsByEndpoint(sql: Sql, endpointIds: string[]): Promise<Map<string, string[]>> {
  const rows = await sql<{ endpoint_id: string; ciphertext: string }[]>`
    select endpoint_id, ciphertext from endpoint_secrets
    where endpoint_id = any(${endpointIds}) and (expires_at is null or expires_at > now())
    order by created_at desc`;
  const byEndpoint = new Map<string, string[]>();
  for (const row of rows) {
    const list = byEndpoint.get(row.endpoint_id) ?? [];
    list.push(decryptCached(row.ciphertext));
    byEndpoint.set(row.endpoint_id, list);
  }
  return byEndpoint;
}

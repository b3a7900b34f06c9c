import type { SqlOrTx } from "../db/client";
import { ConflictError } from "../errors";
import type { IngestResult, PreparedMessage } from "./ingest-types";
import type { MessageAccepted } from "./schemas";

/** What a key answers once the call commits: that call's message, or the one the key was first used for. */
export type KeyAnswer = { requestHash: string; message: MessageAccepted };

const byKey = (a: PreparedMessage, b: PreparedMessage) => (a.key! < b.key! ? -1 : a.key! > b.key! ? 1 : 0);

/**
 * A key given twice in one call: its first item claims it; a later one (a repeat) is answered as a
 * call of its own right after this one would be — a replay of the same request, a conflict for
 * another. Returns what is to be written (items without a key, and each key's first), the keys'
 * first items in key order, and the repeats.
 */
export function splitRepeatedKeys(messages: PreparedMessage[]): { firsts: PreparedMessage[]; keyed: PreparedMessage[]; repeats: PreparedMessage[] } {
  const owners = new Map<string, PreparedMessage>();
  const repeats: PreparedMessage[] = [];
  for (const item of messages) {
    if (item.key === undefined) continue;
    if (owners.has(item.key)) repeats.push(item);
    else owners.set(item.key, item);
  }
  if (owners.size === 0) return { firsts: messages, keyed: [], repeats };
  const firsts = messages.filter((item) => item.key === undefined || owners.get(item.key) === item);
  return { firsts, keyed: [...owners.values()].sort(byKey), repeats };
}

/**
 * Takes each key for its item's message until `expiresAt`, in the write's transaction. The insert
 * takes each key's lock, in key order (two calls with keys in common never deadlock): a concurrent
 * request with the same key waits there until this transaction ends, then replays its answer. An
 * expired key is taken over. Returns every key's answer, and the items whose key another call
 * holds: those are answered from it, not written.
 */
export async function claimIdempotencyKeys(
  tx: SqlOrTx,
  keyed: PreparedMessage[],
  at: { now: Date; expiresAt: Date },
): Promise<{ answers: Map<string, KeyAnswer>; held: PreparedMessage[] }> {
  const claimed = await tx<{ key: string }[]>`
    insert into idempotency_keys (key, request_hash, message_id, response, created_at, expires_at)
    select k.key, k.request_hash, k.message_id, k.response, ${at.now}::timestamptz, ${at.expiresAt}::timestamptz
    from unnest(${keyed.map((k) => k.key!)}::text[], ${keyed.map((k) => k.requestHash!)}::text[], ${keyed.map((k) => k.message.id)}::text[],
                ${keyed.map((k) => JSON.stringify(k.message))}::text[]::jsonb[]) with ordinality as k(key, request_hash, message_id, response, n)
    order by k.n
    on conflict (key) do update set request_hash = excluded.request_hash, message_id = excluded.message_id,
      response = excluded.response, created_at = excluded.created_at, expires_at = excluded.expires_at
    where idempotency_keys.expires_at <= now()
    returning key`;
  const taken = new Set(claimed.map((c) => c.key));
  const answers = new Map<string, KeyAnswer>();
  for (const item of keyed) if (taken.has(item.key!)) answers.set(item.key!, { requestHash: item.requestHash!, message: item.message });
  const held = keyed.filter((item) => !taken.has(item.key!));
  if (held.length > 0) {
    const existing = await tx<{ key: string; request_hash: string; response: MessageAccepted }[]>`
      select key, request_hash, response from idempotency_keys where key = any(${held.map((k) => k.key!)}::text[])`;
    for (const first of existing) answers.set(first.key, { requestHash: first.request_hash, message: first.response });
  }
  return { answers, held };
}

/** A key already used: its first answer again for the same request, a conflict for another. */
export function answerFor(item: PreparedMessage, first: KeyAnswer): IngestResult {
  if (first.requestHash === item.requestHash) return { message: first.message, replayed: true };
  return { error: new ConflictError("idempotency_conflict", "This Idempotency-Key was already used with a different request body.") };
}

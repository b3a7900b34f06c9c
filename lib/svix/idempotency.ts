import type { Ctx } from "../context";
import { sha256Hex } from "../crypto/encryption";
import type { Sql, SqlOrTx } from "../db/client";
import { ConflictError } from "../errors";
import { ID_PREFIXES } from "../ids";

/**
 * Idempotency for every POST of the Svix surface, as Svix does it (the SDKs send
 * `idempotency-key: auto_<uuid>` on each POST and reuse it on their retries): keyed on the
 * credential, the path and query, and the key; the first 2xx answer is kept for IDEMPOTENCY_TTL
 * (24 h; Svix keeps 12 h) and replayed as it was, whatever the body of the repeat (not compared).
 * An answer that is not a 2xx is not kept, so the key may be tried again.
 *
 * The key is taken only once the request's body has been read and checked (lib/svix/route.ts): a
 * body that never finishes never holds a key. A duplicate that arrives while the first is still
 * being answered waits for it without asking the database again until woken: the first's end is
 * announced on NOTIFY_CHANNEL (from whichever web process answered it) and heard on the pool's one
 * LISTEN connection, so a waiter holds no pooled connection however many wait. Past
 * MAX_WAITERS_PER_KEY waiting in this process, or after IDEMPOTENCY_WAIT (30 s), a duplicate is answered
 * 409 `conflict`.
 */
/** Duplicates of one key waiting at once, per web process: bounds the sockets one key holds open. */
export const MAX_WAITERS_PER_KEY = 300;
/** A pending row older than this was left by a request that died: another may take the key over. */
const ABANDONED_AFTER = "60 seconds";
const NOTIFY_CHANNEL = "webhook_admin_idempotency";

type Row = { state: "pending" | "done"; status: number | null; body: string | null };

/** One waiting duplicate: woken when its key's first request ends, wherever it was answered. */
class Waiter {
  private woken = false;
  private resolve: (() => void) | null = null;

  wake(): void {
    this.woken = true;
    this.resolve?.();
  }

  /** Until woken (or already woken since the last wait), or `ms` pass. */
  async next(ms: number): Promise<void> {
    if (!this.woken) {
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        this.resolve = resolve;
        timer = setTimeout(resolve, ms);
      });
      clearTimeout(timer);
      this.resolve = null;
    }
    this.woken = false;
  }
}

/** This process's waiting duplicates, by key hash. */
const waiting = new Map<string, Set<Waiter>>();
/** Each pool's LISTEN (postgres.js gives it a connection of its own, outside the pool's `max`). */
const listening = new WeakMap<object, Promise<unknown>>();

function wake(keyHash: string): void {
  for (const waiter of waiting.get(keyHash) ?? []) waiter.wake();
}

/** How many duplicates are waiting in this process. */
export function waitingDuplicates(): number {
  let n = 0;
  for (const set of waiting.values()) n += set.size;
  return n;
}

async function listen(sql: SqlOrTx): Promise<void> {
  if (!("listen" in sql)) return; // a transaction: its waiters wake at their deadline
  let started = listening.get(sql);
  if (!started) {
    started = (sql as Sql).listen(NOTIFY_CHANNEL, wake);
    listening.set(sql, started);
    // Another waiter tries again; this one still wakes at its deadline.
    started.catch(() => listening.delete(sql));
  }
  await started.catch(() => {});
}

function stillAnswered(): ConflictError {
  return new ConflictError("conflict", "A request with this Idempotency-Key is still being answered; retry later.");
}

export async function idempotent(ctx: Ctx, req: Request, key: string, answer: () => Promise<Response>): Promise<Response> {
  const { sql, actor } = ctx;
  const url = new URL(req.url);
  const credential = actor.type === "system" ? "system" : `${actor.type}:${actor.id}`;
  const keyHash = sha256Hex(`${credential}\n${url.pathname}${url.search}\n${key}`);
  const ttlMs = ctx.config.IDEMPOTENCY_TTL;
  const deadline = Date.now() + ctx.config.IDEMPOTENCY_WAIT;
  let waiter: Waiter | null = null;
  const leave = () => {
    const set = waiter && waiting.get(keyHash);
    if (!set || !waiter) return;
    set.delete(waiter);
    if (set.size === 0) waiting.delete(keyHash);
    waiter = null;
  };
  try {
    for (;;) {
      // Take the key: a new one, or one whose answer expired, or one its first request abandoned.
      const [taken] = await sql<{ key_hash: string }[]>`
        insert into api_idempotency (key_hash, state, expires_at) values (${keyHash}, 'pending', now() + ${ttlMs} * interval '1 millisecond')
        on conflict (key_hash) do update set state = 'pending', status = null, body = null, created_at = now(), expires_at = excluded.expires_at
          where api_idempotency.expires_at <= now()
             or (api_idempotency.state = 'pending' and api_idempotency.created_at < now() - ${ABANDONED_AFTER}::interval)
        returning key_hash`;
      if (taken) {
        leave();
        return await first(ctx, keyHash, answer);
      }
      const [row] = await sql<Row[]>`select state, status, body from api_idempotency where key_hash = ${keyHash}`;
      if (row?.state === "done") return replay(row);
      if (!row) continue; // its first failed in between: try to take it
      if (!waiter) {
        // Waiting from here on, and listening before looking again, so no end goes unheard.
        const set = waiting.get(keyHash) ?? new Set<Waiter>();
        if (set.size >= MAX_WAITERS_PER_KEY) throw stillAnswered();
        waiter = new Waiter();
        set.add(waiter);
        waiting.set(keyHash, set);
        await listen(sql);
        continue;
      }
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw stillAnswered();
      await waiter.next(remaining);
    }
  } finally {
    leave();
  }
}

/** Tells every waiting duplicate, in this process and the others, that the key's first has ended. */
function ended(ctx: Ctx, keyHash: string): Promise<unknown> {
  wake(keyHash);
  return ctx.sql`select pg_notify(${NOTIFY_CHANNEL}, ${keyHash})`;
}

async function first(ctx: Ctx, keyHash: string, answer: () => Promise<Response>): Promise<Response> {
  const { sql } = ctx;
  let response: Response;
  try {
    response = await answer();
  } catch (error) {
    await sql`delete from api_idempotency where key_hash = ${keyHash} and state = 'pending'`;
    await ended(ctx, keyHash);
    throw error;
  }
  if (response.status < 200 || response.status >= 300) {
    await sql`delete from api_idempotency where key_hash = ${keyHash} and state = 'pending'`;
    await ended(ctx, keyHash);
    return response;
  }
  const body = response.status === 204 ? null : await response.clone().text();
  await sql`
    update api_idempotency set state = 'done', status = ${response.status}, body = ${body}, message_id = ${messageAnswered(body)}
    where key_hash = ${keyHash}`;
  await ended(ctx, keyHash);
  return response;
}

const MESSAGE_ANSWER = new RegExp(`^\\{"id":"(${ID_PREFIXES.message}_[0-9a-z]+)"`);

/**
 * The message an answer is, when it is one (POST /app/{app}/msg's, holding its payload): a payload
 * expunge rewrites the kept answer, an erasure deletes it (lib/retention).
 */
function messageAnswered(body: string | null): string | null {
  // A message is answered with its id first (lib/svix/messages.ts, toMessageOut): read from the
  // front, the payload behind it (up to MAX_PAYLOAD_BYTES) is not parsed again.
  return body?.match(MESSAGE_ANSWER)?.[1] ?? null;
}

function replay(row: Row): Response {
  const status = row.status ?? 200;
  const headers: Record<string, string> = { "idempotent-replayed": "true" };
  if (status !== 204) headers["content-type"] = "application/json";
  return new Response(status === 204 ? null : (row.body ?? "{}"), { status, headers });
}

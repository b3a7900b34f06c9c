import type { Ctx } from "../context";
import { sha256Hex } from "../crypto/encryption";
import { ConflictError } from "../errors";
import { ID_PREFIXES } from "../ids";

/**
 * Idempotency for every POST of the Svix surface, as Svix does it (the SDKs send
 * `idempotency-key: auto_<uuid>` on each POST and reuse it on their retries): keyed on the
 * credential, the path and query, and the key; the first 2xx answer is kept for IDEMPOTENCY_TTL
 * (24 h; Svix keeps 12 h) and replayed as it was, whatever the body of the repeat (not compared).
 * A duplicate that arrives while the first is still being answered waits for it (polling its row)
 * and replays its answer; an answer that is not a 2xx is not kept, so the key may be tried again.
 */
const POLL_MS = 50;
/** How long a duplicate waits for the first request's answer before it is refused 409. */
export const WAIT_FOR_FIRST_MS = 30_000;
/** A pending row older than this was left by a request that died: another may take the key over. */
const ABANDONED_AFTER = "60 seconds";

type Row = { state: "pending" | "done"; status: number | null; body: string | null };

export async function idempotent(ctx: Ctx, req: Request, key: string, answer: () => Promise<Response>): Promise<Response> {
  const { sql, actor } = ctx;
  const url = new URL(req.url);
  const credential = actor.type === "system" ? "system" : `${actor.type}:${actor.id}`;
  const keyHash = sha256Hex(`${credential}\n${url.pathname}${url.search}\n${key}`);
  const ttlMs = ctx.config.IDEMPOTENCY_TTL;
  const deadline = Date.now() + WAIT_FOR_FIRST_MS;
  for (;;) {
    // Take the key: a new one, or one whose answer expired, or one its first request abandoned.
    const [taken] = await sql<{ key_hash: string }[]>`
      insert into api_idempotency (key_hash, state, expires_at) values (${keyHash}, 'pending', now() + ${ttlMs} * interval '1 millisecond')
      on conflict (key_hash) do update set state = 'pending', status = null, body = null, created_at = now(), expires_at = excluded.expires_at
        where api_idempotency.expires_at <= now()
           or (api_idempotency.state = 'pending' and api_idempotency.created_at < now() - ${ABANDONED_AFTER}::interval)
      returning key_hash`;
    if (taken) return first(ctx, keyHash, answer);
    const [row] = await sql<Row[]>`select state, status, body from api_idempotency where key_hash = ${keyHash}`;
    if (row?.state === "done") return replay(row);
    // Pending (the first is still being answered), or gone (it failed): wait, then look again.
    if (Date.now() > deadline) throw new ConflictError("conflict", "A request with this Idempotency-Key is still being answered; retry later.");
    if (row) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

async function first(ctx: Ctx, keyHash: string, answer: () => Promise<Response>): Promise<Response> {
  const { sql } = ctx;
  let response: Response;
  try {
    response = await answer();
  } catch (error) {
    await sql`delete from api_idempotency where key_hash = ${keyHash} and state = 'pending'`;
    throw error;
  }
  if (response.status < 200 || response.status >= 300) {
    await sql`delete from api_idempotency where key_hash = ${keyHash} and state = 'pending'`;
    return response;
  }
  const body = response.status === 204 ? null : await response.clone().text();
  await sql`
    update api_idempotency set state = 'done', status = ${response.status}, body = ${body}, message_id = ${messageAnswered(body)}
    where key_hash = ${keyHash}`;
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

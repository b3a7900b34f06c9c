import type { Ctx } from "../context";
import { decryptionKeys, sha256Hex } from "../crypto/encryption";
import type { Sql } from "../db/client";
import { decryptSecrets } from "../deliveries/signing-keys";
import { formatDuration } from "../duration";
import { ConflictError, NotFoundError, RateLimitedError, UnauthorizedError } from "../errors";
import { authFailures, failureBucket } from "../request-limits/auth-failures";
import { webhookHeaders } from "../webhooks/request-headers";
import { CursorExpiredError, decodeCursor, encodeCursor, positionAt, positionTime, type Position } from "./cursor";
import { authenticatePollToken } from "./poll-tokens";
import { readPage, type PolledEndpoint, type PolledMessage } from "./read-page";
import { recordPoll } from "./record-polled";
import type { PollPage, PolledMessageOut } from "./schemas";
import { armWait } from "./wait-for-messages";

type EndpointRow = PolledEndpoint & { uid: string | null; svixId: string | null; state: string; destination: string; createdAt: Date };

async function readEndpoint(ctx: Ctx, id: string): Promise<EndpointRow | undefined> {
  const [row] = await ctx.sql<EndpointRow[]>`
    select id, consumer_id as "consumerId", uid, svix_id as "svixId", state, destination, event_types as "eventTypes",
           channels, filter, created_at as "createdAt"
    from endpoints where id = ${id}`;
  return row;
}

/**
 * Where a reader with no cursor starts: at the endpoint's creation (its messages are those made
 * since it exists, as a pushed endpoint's are), or at the oldest kept message when that is later.
 */
export function startOf(createdAt: Date, retentionMs: number): Position {
  return positionAt(Math.max(createdAt.getTime(), Date.now() - retentionMs));
}

/** A position still inside retention, or CursorExpiredError (410): messages before it may be gone, and a reader would never know which. */
export function checkRetained(position: Position, retentionMs: number): void {
  if (positionTime(position) < Date.now() - retentionMs) throw new CursorExpiredError(formatDuration(retentionMs));
}

/** Each message as a poll answers it: its payload, and the headers an HTTP delivery of it would carry now. */
export async function signPolled(sql: Sql | Ctx["sql"], keys: Buffer[], endpointId: string, messages: PolledMessage[]): Promise<PolledMessageOut[]> {
  if (messages.length === 0) return [];
  const [row] = await sql<{ secrets: string[] }[]>`select webhook_admin_signing_secrets(${endpointId}) as secrets`;
  const secrets = decryptSecrets(row?.secrets ?? [], keys);
  if (!secrets || secrets.length === 0) throw new Error(`the signing secrets of endpoint ${endpointId} cannot be read with the configured keys`);
  const now = Date.now();
  return messages.map((m) => {
    const all = webhookHeaders({ messageId: m.id, body: m.payload, secrets, custom: {}, now });
    return {
      id: m.id,
      event_type: m.event_type,
      payload: JSON.parse(m.payload),
      body: m.payload,
      created_at: m.created_at.toISOString(),
      headers: { "webhook-id": all["webhook-id"]!, "webhook-timestamp": all["webhook-timestamp"]!, "webhook-signature": all["webhook-signature"]! },
    };
  });
}

/**
 * GET /endpoints/{id}/poll: the next page of a polling endpoint's messages after `cursor`, for the
 * holder of one of its poll tokens (unknown or revoked: 401; another endpoint's: 404, as if there
 * were no such endpoint). An empty page waits up to POLL_WAIT for messages, woken by ingest's
 * wake-up, and ends early when `signal` aborts (the client went away). What the page gives past the
 * endpoint's committed position counts as delivered (./record-polled.ts).
 */
export async function pollEndpoint({ ctx, ref, token, client, cursor, limit, signal }: { ctx: Ctx; ref: string; token: string; client: string; cursor?: string; limit: number; signal?: AbortSignal }): Promise<PollPage> {
  const { config } = ctx;
  // Under the failed-authentication limit API keys and portal links are under (the same buckets), checked before any lookup.
  const failures = authFailures(config);
  const tokenHash = sha256Hex(token);
  const bucket = failureBucket(client, tokenHash);
  const blocked = failures.retryAfter(bucket, tokenHash);
  if (blocked > 0) throw new RateLimitedError(blocked);
  const found = await authenticatePollToken(ctx, token);
  if (!found) {
    failures.failed(bucket, tokenHash);
    throw new UnauthorizedError("The poll token is unknown or revoked: send `Authorization: Bearer ept_…`, a token of this endpoint.");
  }
  failures.succeeded(tokenHash);
  const endpoint = await readEndpoint(ctx, found.endpointId);
  if (!endpoint || ![endpoint.id, endpoint.uid, endpoint.svixId].includes(ref)) throw new NotFoundError("endpoint", ref);
  if (endpoint.state !== "active") throw new ConflictError("endpoint_disabled", "The endpoint is disabled: its consumer's operator enables it again before it can be polled.");
  const from = cursor === undefined || cursor === "" ? startOf(endpoint.createdAt, config.RETENTION_PERIOD) : decodeCursor(cursor);
  checkRetained(from, config.RETENTION_PERIOD);

  const read = () => readPage(ctx.sql, endpoint, from, { limit, settleMs: config.POLL_SETTLE });
  let page = await read();
  if (page.messages.length === 0 && page.done) {
    const deadline = Date.now() + config.POLL_WAIT;
    const wait = await armWait(ctx.sql);
    try {
      // Armed, then looked at again: a message written between the first look and the arming is not missed.
      page = await read();
      while (page.messages.length === 0 && page.done && Date.now() < deadline && !signal?.aborted) {
        // Woken by a new message, or when one already written has settled (ADR 0048).
        await wait.until(page.settlesInMs === null ? deadline : Math.min(deadline, Date.now() + page.settlesInMs), signal);
        if (signal?.aborted) break;
        page = await read();
      }
    } finally {
      wait.close();
    }
  }
  await recordPoll(ctx.sql as Sql, endpoint, page.messages, `/api/v1/endpoints/${endpoint.id}/poll`);
  return {
    data: await signPolled(ctx.sql, decryptionKeys(config), endpoint.id, page.messages),
    cursor: encodeCursor(page.position),
    done: page.done,
  };
}

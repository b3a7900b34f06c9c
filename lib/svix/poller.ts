import { z } from "zod";
import type { Ctx } from "../context";
import { decryptionKeys } from "../crypto/encryption";
import type { Sql } from "../db/client";
import { findEndpointRow } from "../endpoints";
import { NotFoundError } from "../errors";
import { POLLING_KIND } from "../destinations";
import { checkRetained, decodeCursor, encodeCursor, positionAt, readPage, recordPoll, signPolled, startOf, type Position } from "../polling";
import { appOf } from "./endpoints";
import { MAX_LIMIT, QueryList, SvixTime } from "./request";

/**
 * Svix's poller (`message.poller`) over a polling endpoint (lib/polling, ADR 0048): the sink is the
 * endpoint, named as the Svix surface names endpoints, within the application in the path. The
 * iterator is the cursor our own poll answers (the two read the same positions), a page is answered
 * at once (no long-poll: the SDK's calls have no wait), and what a page gives past the committed
 * position counts as delivered, as a poll of ours. The consumer-id variant keeps each named
 * reader's position (poller_consumers): a poll without an iterator starts there, and every poll
 * stores where it ended.
 */
export const PollerQuery = z.object({
  limit: z.coerce.number().int().min(1).default(50).transform((n) => Math.min(n, MAX_LIMIT)),
  iterator: z.string().min(1).max(300).optional(),
  event_type: QueryList.optional(),
  channel: z.string().min(1).max(128).optional(),
  after: SvixTime.optional(),
});
export const ConsumerPollQuery = PollerQuery.pick({ limit: true, iterator: true });

export const PollerMessageOut = z.object({
  id: z.string(),
  eventType: z.string(),
  eventId: z.string().nullable(),
  payload: z.unknown(),
  channels: z.array(z.string()).nullable(),
  tags: z.array(z.string()).nullable(),
  timestamp: z.string(),
  /** The Standard Webhooks headers an HTTP delivery of it would carry. */
  headers: z.record(z.string(), z.string()),
});
export const PollerOut = z.object({ data: z.array(PollerMessageOut), iterator: z.string(), done: z.boolean() });
export type PollerOut = z.infer<typeof PollerOut>;
export const SeekIn = z.object({ after: SvixTime });
export const SeekOut = z.object({ iterator: z.string() });

/** A consumer's name in the path: the characters Svix allows in ids. */
const CONSUMER_NAME = /^[a-zA-Z0-9\-_.:]{1,256}$/;

async function sinkIn(ctx: Ctx, appRef: string, sinkRef: string) {
  const app = await appOf(ctx, appRef);
  const endpoint = await findEndpointRow(ctx, sinkRef, { consumerId: app.id });
  if (endpoint.destination !== POLLING_KIND) throw new NotFoundError("polling endpoint", sinkRef);
  return endpoint;
}

async function page(ctx: Ctx, endpoint: Awaited<ReturnType<typeof sinkIn>>, from: Position, query: { limit: number; event_type?: string[]; channel?: string }): Promise<PollerOut> {
  checkRetained(from, ctx.config.RETENTION_PERIOD);
  const read = await readPage(ctx.sql, endpoint, from, { limit: query.limit, settleMs: ctx.config.POLL_SETTLE, eventTypes: query.event_type, channel: query.channel });
  await recordPoll(ctx.sql as Sql, endpoint, read.messages, `/api/v1/app/${endpoint.consumerId}/poller/${endpoint.id}`);
  const signed = await signPolled(ctx.sql, decryptionKeys(ctx.config), endpoint.id, read.messages);
  const extra = await ctx.sql<{ id: string; event_id: string | null; tags: string[] | null }[]>`
    select id, event_id, tags from messages where id = any(${read.messages.map((m) => m.id)})`;
  const byId = new Map(extra.map((row) => [row.id, row]));
  return {
    data: signed.map((m, n) => ({
      id: m.id,
      eventType: m.event_type,
      eventId: byId.get(m.id)?.event_id ?? null,
      payload: m.payload,
      channels: read.messages[n]!.channels,
      tags: byId.get(m.id)?.tags ?? null,
      timestamp: m.created_at,
      headers: m.headers,
    })),
    iterator: encodeCursor(read.position),
    done: read.done,
  };
}

/** GET /app/{app}/poller/{sink}: from `iterator`, else from `after`, else from the endpoint's start. */
export async function svixPoll(ctx: Ctx, appRef: string, sinkRef: string, query: z.infer<typeof PollerQuery>): Promise<PollerOut> {
  const endpoint = await sinkIn(ctx, appRef, sinkRef);
  const from = query.iterator ? decodeCursor(query.iterator) : query.after ? positionAt(query.after.getTime() + 1) : startOf(endpoint.createdAt, ctx.config.RETENTION_PERIOD);
  return page(ctx, endpoint, from, query);
}

function consumerName(name: string): string {
  if (!CONSUMER_NAME.test(name)) throw new NotFoundError("poller consumer", name);
  return name;
}

async function storePosition(ctx: Ctx, endpoint: { id: string; consumerId: string }, name: string, position: Position): Promise<void> {
  await ctx.sql`
    insert into poller_consumers (endpoint_id, name, consumer_id, position) values (${endpoint.id}, ${name}, ${endpoint.consumerId}, ${position})
    on conflict (endpoint_id, name) do update set position = excluded.position, updated_at = now()`;
}

/** GET /app/{app}/poller/{sink}/consumer/{consumer}: from `iterator`, else from where this consumer stands; its position is then where the page ended. */
export async function svixConsumerPoll(ctx: Ctx, appRef: string, sinkRef: string, consumer: string, query: z.infer<typeof ConsumerPollQuery>): Promise<PollerOut> {
  const name = consumerName(consumer);
  const endpoint = await sinkIn(ctx, appRef, sinkRef);
  const [stored] = await ctx.sql<{ position: string }[]>`select position from poller_consumers where endpoint_id = ${endpoint.id} and name = ${name}`;
  const from = query.iterator ? decodeCursor(query.iterator) : (stored?.position ?? startOf(endpoint.createdAt, ctx.config.RETENTION_PERIOD));
  const answer = await page(ctx, endpoint, from, query);
  await storePosition(ctx, endpoint, name, decodeCursor(answer.iterator));
  return answer;
}

/** POST /app/{app}/poller/{sink}/consumer/{consumer}/seek: the consumer stands just after `after`; its next poll starts there. */
export async function svixConsumerSeek(ctx: Ctx, appRef: string, sinkRef: string, consumer: string, input: z.infer<typeof SeekIn>): Promise<z.infer<typeof SeekOut>> {
  const name = consumerName(consumer);
  const endpoint = await sinkIn(ctx, appRef, sinkRef);
  const position = positionAt(input.after.getTime() + 1);
  checkRetained(position, ctx.config.RETENTION_PERIOD);
  await storePosition(ctx, endpoint, name, position);
  return { iterator: encodeCursor(position) };
}

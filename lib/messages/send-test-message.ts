import { eq, sql } from "drizzle-orm";
import type { Ctx } from "../context";
import { deliveries, eventTypes, messages } from "../db/schema";
import { deliveriesOfMessageColumn } from "../db/deliveries-of-messages";
import { ConflictError, RateLimitedError } from "../errors";
import { createMessage } from "./create-message";
import { findEndpointRow } from "../endpoints/queries";
import { POLLING_KIND } from "../destinations";
import type { SendTestInput, TestQueued } from "../endpoints/schemas";

/** The event type a test send uses when the caller names none. */
export const TEST_EVENT_TYPE = "webhook.test";

/**
 * A test send is signed with the live secret, so whoever may send one could have any event type and
 * payload signed: the receiver is told (`webhook-test: true`) and each endpoint takes at most
 * ENDPOINT_TEST_SENDS_PER_MINUTE of them. Counted from the endpoint's deliveries of the last minute
 * (their index), so the bound holds across web processes.
 */
async function limitTestSends(ctx: Ctx, endpointId: string): Promise<void> {
  const perMinute = ctx.config.ENDPOINT_TEST_SENDS_PER_MINUTE;
  const [recent] = await ctx.db.execute<{ n: number; oldest: string | null }>(sql`
    select count(*)::int as n, min(${deliveries.createdAt})::text as oldest
    from ${deliveries} join ${messages} on ${deliveriesOfMessageColumn(messages.id)}
    where ${deliveries.endpointId} = ${endpointId} and ${deliveries.createdAt} > now() - interval '1 minute' and ${messages.isTest}`);
  if (!recent || recent.n < perMinute) return;
  const freeAt = new Date(recent.oldest!).getTime() + 60_000;
  throw new RateLimitedError(Math.max(1, Math.ceil((freeAt - Date.now()) / 1000)));
}

/**
 * A real message, recorded and queued like any other, addressed to this one endpoint: what the
 * receiver sees is exactly what production traffic will look like, and it shows in the log.
 */
export async function sendTestMessage({ ctx, id, input }: { ctx: Ctx; id: string; input: SendTestInput }): Promise<TestQueued> {
  const endpoint = await findEndpointRow(ctx, id);
  if (endpoint.destination === POLLING_KIND) {
    throw new ConflictError("polling_endpoint", "A polling endpoint is read by its consumer and has no deliveries, which is what addresses a test message to one endpoint (polls skip test messages). Send a message of one of its event types to see it polled.");
  }
  if (endpoint.state !== "active") {
    throw new ConflictError("invalid_state", "The endpoint is disabled; enable it before sending a test.");
  }
  await limitTestSends(ctx, endpoint.id);
  const eventType = input.event_type ?? endpoint.eventTypes?.[0] ?? TEST_EVENT_TYPE;
  let payload = input.payload;
  if (!payload) {
    const [row] = await ctx.db.select({ example: eventTypes.example }).from(eventTypes).where(eq(eventTypes.name, eventType)).limit(1);
    const example = row?.example;
    payload =
      example && typeof example === "object" && !Array.isArray(example)
        ? (example as Record<string, unknown>)
        : { type: eventType, test: true, sent_at: new Date().toISOString() };
  }
  const { message } = await createMessage({
    ctx,
    input: { consumer: endpoint.consumerId, event_type: eventType, payload },
    onlyEndpointId: endpoint.id,
  });
  // Disabled between the read above and the insert: nothing was queued, so say so.
  if (message.deliveries === 0) throw new ConflictError("invalid_state", "The endpoint was disabled while the test was being sent.");
  return { message_id: message.id };
}

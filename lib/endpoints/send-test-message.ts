import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Ctx } from "../context";
import { eventTypes } from "../db/schema";
import { ConflictError } from "../errors";
import { EventTypeName } from "../event-types/schemas";
import { createMessage } from "../messages/create-message";
import { findEndpointRow } from "./queries";

export const SendTestInput = z.strictObject({
  event_type: EventTypeName.optional(),
  payload: z.record(z.string(), z.unknown()).optional(),
});
export type SendTestInput = z.infer<typeof SendTestInput>;

export const TestQueued = z.object({ message_id: z.string() });
export type TestQueued = z.infer<typeof TestQueued>;

/** The event type a test send uses when the caller names none. */
export const TEST_EVENT_TYPE = "webhook.test";

/**
 * A real message, recorded and queued like any other, addressed to this one endpoint: what the
 * receiver sees is exactly what production traffic will look like, and it shows in the log.
 */
export async function sendTestMessage({ ctx, id, input }: { ctx: Ctx; id: string; input: SendTestInput }): Promise<TestQueued> {
  const endpoint = await findEndpointRow(ctx, id);
  if (endpoint.state !== "active") {
    throw new ConflictError("invalid_state", "The endpoint is disabled; enable it before sending a test.");
  }
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

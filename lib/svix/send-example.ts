import { z } from "zod";
import type { Ctx } from "../context";
import { findEventType } from "../event-types/queries";
import { sendTestMessage } from "../messages";
import { appOf, endpointIn } from "./endpoints";
import { getSvixMessage, type MessageOut } from "./messages";

export const EventExampleIn = z.object({
  eventType: z.string().min(1).max(256),
  /** Which of the schema's `examples` (default the first); without such an array, the event type's example. */
  exampleIndex: z.number().int().min(0).default(0),
});
export type EventExampleIn = z.infer<typeof EventExampleIn>;

/** The example Svix sends: the schema's `examples[index]` when it has such an object there, else ours (sendTestMessage's). */
function exampleOf(schema: Record<string, unknown> | null, index: number): Record<string, unknown> | undefined {
  const examples = schema?.examples;
  const chosen = Array.isArray(examples) ? (examples[index] ?? examples[0]) : undefined;
  return chosen && typeof chosen === "object" && !Array.isArray(chosen) ? (chosen as Record<string, unknown>) : undefined;
}

/**
 * endpoint.sendExample: our test send (POST /endpoints/{id}/test) of the event type's example, to
 * this endpoint alone — a real message, signed, marked `webhook-test: true`, within
 * ENDPOINT_TEST_SENDS_PER_MINUTE. The event type must exist (404).
 */
export async function sendSvixExample(ctx: Ctx, appRef: string, endpointRef: string, input: EventExampleIn): Promise<MessageOut> {
  const app = await appOf(ctx, appRef);
  const endpoint = await endpointIn(ctx, app.id, endpointRef);
  const eventType = await findEventType(ctx, input.eventType);
  const payload = exampleOf(eventType.schema, input.exampleIndex);
  const { message_id } = await sendTestMessage({ ctx, id: endpoint.id, input: { event_type: eventType.name, ...(payload ? { payload } : {}) } });
  return getSvixMessage(ctx, app.id, message_id, true);
}

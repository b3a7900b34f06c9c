import { createConsumer } from "../consumers/create-consumer";
import type { Ctx } from "../context";
import { createEndpoint } from "../endpoints/create-endpoint";
import { createEventType } from "../event-types/create-event-type";
import { DEMO_CONSUMER, DEMO_ENDPOINTS, DEMO_EVENT_TYPES, DEMO_RECEIVER_PATH } from "./catalog";

/**
 * The demo's consumer, event types and endpoints, made by the verbs the API calls. The endpoints
 * point at this app's own receivers under APP_URL, which the demo's loopback allowance admits.
 */
export async function seedDemoConsumer({ ctx, appUrl }: { ctx: Ctx; appUrl: string }): Promise<{ consumer: string; endpoints: number }> {
  for (const eventType of DEMO_EVENT_TYPES) {
    await createEventType({ ctx, input: { ...eventType } });
  }
  const consumer = await createConsumer({ ctx, input: DEMO_CONSUMER });
  for (const endpoint of DEMO_ENDPOINTS) {
    await createEndpoint({
      ctx,
      consumerRef: consumer.id,
      input: {
        url: `${appUrl}${DEMO_RECEIVER_PATH}${endpoint.receiver}`,
        description: endpoint.description,
        event_types: endpoint.event_types,
        ...(endpoint.filter ? { filter: endpoint.filter } : {}),
        ...endpoint.ordering,
      },
    });
  }
  return { consumer: consumer.uid, endpoints: DEMO_ENDPOINTS.length };
}

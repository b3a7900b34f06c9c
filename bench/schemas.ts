/**
 * Part a5 of `npm run bench`: what event schemas cost ingest. One consumer with 10 endpoints on
 * every event type, two event types: one with a realistic schema (20 properties over two levels,
 * two patterns, enums, bounds) enforced with `reject`, one without a schema; POST /messages and
 * POST /messages/batch of payloads that are valid (so both write the same messages and deliveries
 * and only the check differs), on each in turn, pair by pair, the order swapped every pair.
 */
import type { Api } from "./api";
import { sendBatches } from "./batch-ingest";
import { sendMessages } from "./ingest";
import { onOffRows, pairsInTurn, type OnOffPair, type Side } from "./on-off";

const ENDPOINTS = 10;
const CONSUMER = "bench-schema";
const EVENT_TYPES: Record<Side, string> = { on: "bench.schema.enforced", off: "bench.schema.none" };

const address = {
  type: "object",
  additionalProperties: false,
  required: ["line1", "city", "postal_code", "country"],
  properties: {
    line1: { type: "string", maxLength: 200 },
    city: { type: "string", maxLength: 100 },
    postal_code: { type: "string", maxLength: 20 },
    country: { type: "string", pattern: "^[A-Z]{2}$" },
  },
};

/** 20 properties: 12 at the top (two of them objects), 4 in each of those two. */
export const BENCH_SCHEMA = {
  type: "object",
  required: ["id", "type", "created", "amount", "currency", "status", "customer"],
  properties: {
    id: { type: "string", pattern: "^ord_[A-Za-z0-9]{8,32}$" },
    type: { const: "order.paid" },
    created: { type: "integer", minimum: 0 },
    amount: { type: "integer", minimum: 0, maximum: 100_000_000 },
    currency: { enum: ["eur", "usd", "jpy", "gbp"] },
    status: { enum: ["paid", "refunded", "void"] },
    livemode: { type: "boolean" },
    description: { type: ["string", "null"], maxLength: 500 },
    attempt: { type: "integer", minimum: 1, maximum: 10 },
    tags: { type: "array", items: { type: "string", maxLength: 40 }, maxItems: 10 },
    customer: {
      type: "object",
      additionalProperties: false,
      required: ["id", "email"],
      properties: { id: { type: "string", maxLength: 64 }, email: { type: "string", maxLength: 254 }, name: { type: "string", maxLength: 200 }, vip: { type: "boolean" } },
    },
    shipping: address,
  },
};

/** A payload BENCH_SCHEMA accepts, different for each `n`. */
export function orderPayload(n: number) {
  return {
    id: `ord_${n.toString(36).padStart(10, "0")}`,
    type: "order.paid",
    created: 1_800_000_000 + n,
    amount: 1000 + (n % 5000),
    currency: ["eur", "usd", "jpy", "gbp"][n % 4],
    status: "paid",
    livemode: false,
    description: n % 3 === 0 ? null : `Order ${n}`,
    attempt: 1 + (n % 3),
    tags: ["web", `cohort-${n % 7}`],
    customer: { id: `cus_${n % 997}`, email: `buyer${n % 997}@example.com`, name: "A. Buyer", vip: n % 11 === 0 },
    shipping: { line1: `${n % 200} Main Street`, city: "Lyon", postal_code: "69001", country: "FR" },
  };
}

export type SchemaPair = OnOffPair;

export async function measureSchemaCost(
  api: Api,
  options: { receiverUrl: string; pairs: number; messages: number; batchMessages: number; connections: number; batchConnections: number; log: (line: string) => void },
): Promise<SchemaPair[]> {
  await api.expect(201, "POST", "/api/v1/consumers", { uid: CONSUMER, name: CONSUMER });
  const endpointIds: string[] = [];
  for (let i = 0; i < ENDPOINTS; i++) endpointIds.push((await api.expect(201, "POST", `/api/v1/consumers/${CONSUMER}/endpoints`, { url: `${options.receiverUrl}/schema/${i}` })).id);
  await api.expect(201, "POST", "/api/v1/event-types", { name: EVENT_TYPES.on, schema: BENCH_SCHEMA, example: orderPayload(0), enforcement: "reject" });
  await api.expect(201, "POST", "/api/v1/event-types", { name: EVENT_TYPES.off });

  const single = (side: Side, pair: number) =>
    sendMessages(api, { label: `schema ${side}`, count: options.messages, concurrency: options.connections, consumers: [CONSUMER], offset: pair * options.messages, eventType: EVENT_TYPES[side], payload: orderPayload });
  const batch = (side: Side, pair: number) =>
    sendBatches(api, {
      label: `schema ${side}, batch`,
      count: options.batchMessages,
      batchSize: 100,
      concurrency: options.batchConnections,
      consumers: [CONSUMER],
      payloadBytes: 0,
      offset: pair * options.batchMessages,
      eventType: EVENT_TYPES[side],
      payload: orderPayload,
    });
  // Warm-up: the schema compiled in the web process, each route's code hot.
  await single("on", 99);
  await single("off", 99);

  const pairs = await pairsInTurn({ part: "a5", feature: "enforcement", pairs: options.pairs, single, batch, log: options.log });
  // Their deliveries are canceled rather than delivered by the parts after this one.
  for (const id of endpointIds) await api.expect(200, "POST", `/api/v1/endpoints/${id}/disable`);
  return pairs;
}

export const schemaRows = (pairs: SchemaPair[], setup: string) => onOffRows(pairs, "a5. schema enforcement reject / none", setup);

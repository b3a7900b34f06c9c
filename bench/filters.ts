/**
 * Part a4 of `npm run bench`: what payload filters cost ingest. Two consumers with 10 endpoints
 * each, one whose endpoints each carry a five-condition filter that every sample payload passes
 * (so both write the same deliveries and only the evaluation differs), one without filters; POST
 * /messages and POST /messages/batch to each, in turn, pair by pair, the order swapped every pair.
 */
import type { Api } from "./api";
import { sendBatches } from "./batch-ingest";
import { sendMessages } from "./ingest";
import { onOffRows, pairsInTurn, type OnOffPair, type Side } from "./on-off";

const ENDPOINTS = 10;

/** A filter of five conditions over bench/api.ts's and batch-ingest.ts's payloads, each endpoint's its own (a distinct compiled tester). */
const filterOf = (i: number) => ({
  type: "invoice.paid",
  "data.amount": { $gte: 4000 - i },
  "data.currency": { $in: ["eur", "usd", "jpy"] },
  "data.invoice_id": { $exists: true },
  "data.note": { $neq: `blocked-${i}` },
});

export type FilterPair = OnOffPair;

export async function measureFilterCost(
  api: Api,
  options: { receiverUrl: string; pairs: number; messages: number; batchMessages: number; connections: number; batchConnections: number; log: (line: string) => void },
): Promise<FilterPair[]> {
  const endpointIds: string[] = [];
  for (const side of ["on", "off"] as const) {
    const uid = `bench-filter-${side}`;
    await api.expect(201, "POST", "/api/v1/consumers", { uid, name: uid });
    for (let i = 0; i < ENDPOINTS; i++) {
      const created = await api.expect(201, "POST", `/api/v1/consumers/${uid}/endpoints`, { url: `${options.receiverUrl}/filter/${side}/${i}`, ...(side === "on" ? { filter: filterOf(i) } : {}) });
      endpointIds.push(created.id);
    }
  }
  const single = (side: Side, pair: number) =>
    sendMessages(api, { label: `filters ${side}`, count: options.messages, concurrency: options.connections, consumers: [`bench-filter-${side}`], offset: pair * options.messages });
  const batch = (side: Side, pair: number) =>
    sendBatches(api, { label: `filters ${side}, batch`, count: options.batchMessages, batchSize: 100, concurrency: options.batchConnections, consumers: [`bench-filter-${side}`], payloadBytes: 200, offset: pair * options.batchMessages });
  // Warm-up: each filter compiled, each route's code hot.
  await single("on", 99);
  await single("off", 99);

  const pairs = await pairsInTurn({ part: "a4", feature: "filters", pairs: options.pairs, single, batch, log: options.log });
  // Their deliveries are canceled rather than delivered by the parts after this one.
  for (const id of endpointIds) await api.expect(200, "POST", `/api/v1/endpoints/${id}/disable`);
  return pairs;
}

/** The summary's rows: each ratio's median over the pairs, with the rates beside it. */
export const filterRows = (pairs: FilterPair[], setup: string) => onOffRows(pairs, "a4. filters on / off", setup);

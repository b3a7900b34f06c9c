/**
 * Part a4 of `npm run bench`: what payload filters cost ingest. Two consumers with 10 endpoints
 * each, one whose endpoints each carry a five-condition filter that every sample payload passes
 * (so both write the same deliveries and only the evaluation differs), one without filters; POST
 * /messages and POST /messages/batch to each, in turn, pair by pair, the order swapped every pair.
 */
import type { Api } from "./api";
import { sendBatches, type BatchIngestResult } from "./batch-ingest";
import { sendMessages, type IngestResult } from "./ingest";
import { int } from "./stats";

const ENDPOINTS = 10;

/** A filter of five conditions over bench/api.ts's and batch-ingest.ts's payloads, each endpoint's its own (a distinct compiled tester). */
const filterOf = (i: number) => ({
  type: "invoice.paid",
  "data.amount": { $gte: 4000 - i },
  "data.currency": { $in: ["eur", "usd", "jpy"] },
  "data.invoice_id": { $exists: true },
  "data.note": { $neq: `blocked-${i}` },
});

export type FilterPair = { single: { on: IngestResult; off: IngestResult }; batch: { on: BatchIngestResult; off: BatchIngestResult } };

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
  const single = (side: "on" | "off", pair: number) =>
    sendMessages(api, { label: `filters ${side}`, count: options.messages, concurrency: options.connections, consumers: [`bench-filter-${side}`], offset: pair * options.messages });
  const batch = (side: "on" | "off", pair: number) =>
    sendBatches(api, { label: `filters ${side}, batch`, count: options.batchMessages, batchSize: 100, concurrency: options.batchConnections, consumers: [`bench-filter-${side}`], payloadBytes: 200, offset: pair * options.batchMessages });
  // Warm-up: each filter compiled, each route's code hot.
  await single("on", 99);
  await single("off", 99);

  const pairs: FilterPair[] = [];
  for (let p = 0; p < options.pairs; p++) {
    const order = p % 2 === 0 ? (["on", "off"] as const) : (["off", "on"] as const);
    const singles: Partial<Record<"on" | "off", IngestResult>> = {};
    const batches: Partial<Record<"on" | "off", BatchIngestResult>> = {};
    for (const side of order) singles[side] = await single(side, p);
    for (const side of order) batches[side] = await batch(side, p);
    const pair = { single: { on: singles.on!, off: singles.off! }, batch: { on: batches.on!, off: batches.off! } };
    for (const result of [pair.single.on, pair.single.off, pair.batch.on, pair.batch.off]) {
      if (result.firstError) throw new Error(`part a4: ${result.firstError}`);
    }
    options.log(
      `pair ${p + 1}: POST /messages ${int(perSecond(pair.single.on))}/s with filters, ${int(perSecond(pair.single.off))}/s without (${singleRatio(pair).toFixed(3)}); ` +
        `batch ${int(perSecond(pair.batch.on))}/s with, ${int(perSecond(pair.batch.off))}/s without (${batchRatio(pair).toFixed(3)})`,
    );
    pairs.push(pair);
  }
  // Their deliveries are canceled rather than delivered by the parts after this one.
  for (const id of endpointIds) await api.expect(200, "POST", `/api/v1/endpoints/${id}/disable`);
  return pairs;
}

const perSecond = (r: { accepted: number; elapsedMs: number }) => r.accepted / (r.elapsedMs / 1000);
const singleRatio = (p: FilterPair) => perSecond(p.single.on) / perSecond(p.single.off);
const batchRatio = (p: FilterPair) => perSecond(p.batch.on) / perSecond(p.batch.off);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The summary's rows: each ratio's median over the pairs, with the rates beside it. */
export function filterRows(pairs: FilterPair[], setup: string): string[][] {
  if (pairs.length === 0) return [];
  const row = (label: string, ratio: (p: FilterPair) => number, on: (p: FilterPair) => number, off: (p: FilterPair) => number) => [
    label,
    `${median(pairs.map(ratio)).toFixed(3)}× (${int(median(pairs.map(on)))}/s with, ${int(median(pairs.map(off)))}/s without)`,
    `${setup}, median of ${pairs.length} pairs in turn`,
  ];
  return [
    row("a4. filters on / off, single", singleRatio, (p) => perSecond(p.single.on), (p) => perSecond(p.single.off)),
    row("a4. filters on / off, batch", batchRatio, (p) => perSecond(p.batch.on), (p) => perSecond(p.batch.off)),
  ];
}

/**
 * Parts that measure what one feature costs ingest (a4 payload filters, a5 event schemas): the same
 * single and batch ingest with the feature on and off, pair by pair, the order swapped every pair,
 * and each ratio's median over the pairs.
 */
import type { BatchIngestResult } from "./batch-ingest";
import type { IngestResult } from "./ingest";
import { int } from "./stats";

export type Side = "on" | "off";
export type OnOffPair = { single: { on: IngestResult; off: IngestResult }; batch: { on: BatchIngestResult; off: BatchIngestResult } };

const perSecond = (r: { accepted: number; elapsedMs: number }) => r.accepted / (r.elapsedMs / 1000);
const singleRatio = (p: OnOffPair) => perSecond(p.single.on) / perSecond(p.single.off);
const batchRatio = (p: OnOffPair) => perSecond(p.batch.on) / perSecond(p.batch.off);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** `pairs` pairs in turn, each a single run and a batch run of both sides; throws on any refused message. */
export async function pairsInTurn(options: {
  part: string;
  /** What "on" is, for the log: "filters", "enforcement". */
  feature: string;
  pairs: number;
  single: (side: Side, pair: number) => Promise<IngestResult>;
  batch: (side: Side, pair: number) => Promise<BatchIngestResult>;
  log: (line: string) => void;
}): Promise<OnOffPair[]> {
  const pairs: OnOffPair[] = [];
  for (let p = 0; p < options.pairs; p++) {
    const order = p % 2 === 0 ? (["on", "off"] as const) : (["off", "on"] as const);
    const singles: Partial<Record<Side, IngestResult>> = {};
    const batches: Partial<Record<Side, BatchIngestResult>> = {};
    for (const side of order) singles[side] = await options.single(side, p);
    for (const side of order) batches[side] = await options.batch(side, p);
    const pair = { single: { on: singles.on!, off: singles.off! }, batch: { on: batches.on!, off: batches.off! } };
    for (const result of [pair.single.on, pair.single.off, pair.batch.on, pair.batch.off]) {
      if (result.firstError) throw new Error(`part ${options.part}: ${result.firstError}`);
    }
    options.log(
      `pair ${p + 1}: POST /messages ${int(perSecond(pair.single.on))}/s with ${options.feature}, ${int(perSecond(pair.single.off))}/s without (${singleRatio(pair).toFixed(3)}); ` +
        `batch ${int(perSecond(pair.batch.on))}/s with, ${int(perSecond(pair.batch.off))}/s without (${batchRatio(pair).toFixed(3)})`,
    );
    pairs.push(pair);
  }
  return pairs;
}

/** The summary's rows: each ratio's median over the pairs, with the rates beside it. */
export function onOffRows(pairs: OnOffPair[], label: string, setup: string): string[][] {
  if (pairs.length === 0) return [];
  const row = (what: string, ratio: (p: OnOffPair) => number, on: (p: OnOffPair) => number, off: (p: OnOffPair) => number) => [
    `${label}, ${what}`,
    `${median(pairs.map(ratio)).toFixed(3)}× (${int(median(pairs.map(on)))}/s with, ${int(median(pairs.map(off)))}/s without)`,
    `${setup}, median of ${pairs.length} pairs in turn`,
  ];
  return [
    row("single", singleRatio, (p) => perSecond(p.single.on), (p) => perSecond(p.single.off)),
    row("batch", batchRatio, (p) => perSecond(p.batch.on), (p) => perSecond(p.batch.off)),
  ];
}

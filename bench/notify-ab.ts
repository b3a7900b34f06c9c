import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import { parseConfig, type Config } from "../lib/config";
import { SYSTEM, type Ctx } from "../lib/context";
import { createSql, ormOver, type Sql, type SqlOrTx } from "../lib/db/client";
import { notifyDue, notifyDueAfterCommit } from "../lib/jobs";
import { ingestMessages } from "../lib/messages/create-message";
import { findTargets } from "../lib/messages/find-targets";
import type { IngestItem } from "../lib/messages/ingest-types";
import { prepareMessages, type PreparedBatch } from "../lib/messages/prepare-messages";
import { loadFilters } from "../lib/messages/load-filters";
import { sizePayloads } from "../lib/messages/size-payloads";
import { writeMessages } from "../lib/messages/write-messages";
import { runConcurrently, samplePayload } from "./api";
import { prepareDatabase, seedEndpoints } from "./database";
import { percentile } from "./stats";
import { runAsScript } from "./system";

/**
 * Part a3, what ingest's NOTIFY costs at high concurrency: one message a call from `connections`
 * lanes over a pool of as many connections, no HTTP in front (so the database's commit is what is
 * measured), in rounds that take the three ways of waking the worker in turn:
 * - `after-commit`: the product's ingest verb (ingestMessages) as it runs: the messages as one
 *   statement, then one NOTIFY after the commit, coalesced per process;
 * - `in-transaction`: ingest's own stages, the write and a NOTIFY in one transaction (the product
 *   before ADR 0035);
 * - `none`: ingest's own stages, the write alone, the floor.
 * The two others call the stages the verb calls on its one-statement path (lib/messages:
 * sizePayloads, findTargets, prepareMessages, writeMessages), so they differ from it in the wake-up
 * only. PostgreSQL takes one database-wide lock at the commit of a transaction that notified, held
 * until the commit is flushed, so notifying transactions commit one at a time.
 */
export type NotifyMode = "in-transaction" | "after-commit" | "none";
export const NOTIFY_MODES: NotifyMode[] = ["in-transaction", "after-commit", "none"];
export type NotifyRound = { mode: NotifyMode; perSecond: number; p50: number; p99: number };

/** The statement ingest writes a batch with, as its one-statement path writes it. */
function write(sql: SqlOrTx, batch: PreparedBatch) {
  return writeMessages(sql, batch.messages, { now: batch.now, firstAttemptAt: batch.firstAttemptAt, isTest: false, traceparent: null, genericChecks: true });
}

/** Ingest's stages before the write, for one item. */
async function prepare(ctx: Ctx, item: IngestItem): Promise<PreparedBatch> {
  const items = [item];
  const sized = sizePayloads(items, ctx.config.MAX_PAYLOAD_BYTES);
  const targets = await findTargets(ctx.sql, [item.input], { scope: null });
  const { batch } = prepareMessages(items, sized, targets, await loadFilters(ctx.sql, targets), ctx.config.DELIVERY_SCHEDULE[0] ?? 0);
  if (!batch) throw new Error("the message was refused");
  return batch;
}

type Lane = { ctx: Ctx; pool: Sql };

const ingestIn: Record<NotifyMode, (lane: Lane, item: IngestItem) => Promise<unknown>> = {
  "after-commit": async ({ ctx }, item) => {
    const [result] = await ingestMessages({ ctx, items: [item] });
    if (!result || "error" in result) throw result?.error ?? new Error("no result");
  },
  "in-transaction": async ({ ctx, pool }, item) => {
    const batch = await prepare(ctx, item);
    await pool.begin((tx) => Promise.all([write(tx, batch), notifyDue(tx)]));
  },
  none: async ({ ctx, pool }, item) => write(pool, await prepare(ctx, item)),
};

export async function measureNotifyCost(options: {
  databaseUrl: string;
  config: Config;
  consumer: string;
  connections: number;
  messagesPerRound: number;
  rounds: number;
  log: (line: string) => void;
}): Promise<NotifyRound[]> {
  const sql = createSql(options.databaseUrl, { max: options.connections, name: "webhook-admin-bench-notify" });
  const ctx: Ctx = { actor: SYSTEM, db: ormOver(sql), sql, config: options.config };
  const results: NotifyRound[] = [];
  let n = 0;
  const round = async (mode: NotifyMode, count: number): Promise<NotifyRound> => {
    const latencies: number[] = [];
    const started = performance.now();
    await runConcurrently(count, options.connections, async () => {
      const t = performance.now();
      await ingestIn[mode]({ ctx, pool: sql }, { input: { consumer: options.consumer, event_type: "invoice.paid", payload: samplePayload(n++) } });
      latencies.push(performance.now() - t);
    });
    const elapsed = performance.now() - started;
    return { mode, perSecond: (count / elapsed) * 1000, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
  };
  try {
    // Warm the pool's connections and the plans once in each mode.
    for (const mode of NOTIFY_MODES) await round(mode, options.connections * 4);
    for (let r = 0; r < options.rounds; r++) {
      // The order turns each round, so no mode always follows the same one.
      const order = NOTIFY_MODES.map((_, i) => NOTIFY_MODES[(i + r) % NOTIFY_MODES.length]!);
      for (const mode of order) {
        const figures = await round(mode, options.messagesPerRound);
        results.push(figures);
        options.log(`  round ${r + 1}, ${mode}: ${Math.round(figures.perSecond)} messages/s, p50 ${figures.p50.toFixed(1)} ms, p99 ${figures.p99.toFixed(1)} ms`);
      }
    }
  } finally {
    // The last round's coalesced NOTIFY may still be out: let it end before the pool does.
    await notifyDueAfterCommit(sql, () => {});
    await sql.end({ timeout: 5 });
  }
  return results;
}

/** Each mode's median rate and p99 over the rounds, and its ratio to `in-transaction`'s, round by round. */
export function summarizeNotify(rounds: NotifyRound[]): { mode: NotifyMode; perSecond: number; p99: number; ratio: number }[] {
  const median = (values: number[]) => percentile(values, 50);
  const of = (mode: NotifyMode) => rounds.filter((r) => r.mode === mode);
  const base = of("in-transaction");
  return NOTIFY_MODES.map((mode) => ({
    mode,
    perSecond: median(of(mode).map((r) => r.perSecond)),
    p99: median(of(mode).map((r) => r.p99)),
    ratio: median(of(mode).map((r, i) => r.perSecond / base[i]!.perSecond)),
  }));
}

/** `node --import tsx bench/notify-ab.ts`: part a3 alone, on a database of its own. Options: --rounds 3 --connections 64 --messages 3000 --fsync-off */
async function main() {
  const { values } = parseArgs({
    options: {
      rounds: { type: "string", default: "3" },
      connections: { type: "string", default: "64" },
      messages: { type: "string", default: "3000" },
      "fsync-off": { type: "boolean", default: false },
    },
  });
  const db = await prepareDatabase({ fsync: !values["fsync-off"], log: () => {} });
  try {
    const [endpoint] = await seedEndpoints(db.sql, 1, "bench-notify");
    const config = parseConfig({ ...process.env, DATABASE_URL: db.url, ENCRYPTION_KEY: randomBytes(32).toString("hex") });
    console.log(`a3. ${values.rounds} rounds of ${values.messages} messages from ${values.connections} connections; ${db.description}`);
    const rounds = await measureNotifyCost({
      databaseUrl: db.url,
      config,
      consumer: endpoint!.consumer,
      connections: Number(values.connections),
      messagesPerRound: Number(values.messages),
      rounds: Number(values.rounds),
      log: (line) => console.log(line),
    });
    for (const s of summarizeNotify(rounds)) {
      console.log(`${s.mode}: median ${Math.round(s.perSecond)} messages/s, p99 ${s.p99.toFixed(1)} ms; ${s.ratio.toFixed(2)}× in-transaction's, round by round`);
    }
  } finally {
    await db.stop();
  }
}

runAsScript(import.meta.filename, main);

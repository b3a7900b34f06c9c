import type { Config } from "../lib/config";
import { SYSTEM, type Ctx } from "../lib/context";
import { createSql, ormOver } from "../lib/db/client";
import { notifyDueAfterCommit } from "../lib/jobs";
import { ingestMessages } from "../lib/messages/create-message";
import { runConcurrently, samplePayload } from "./api";
import { percentile } from "./stats";

/**
 * What ingest's NOTIFY costs at high concurrency: the ingest verb itself (lib/messages,
 * ingestMessages; no HTTP in front of it, so the database's commit is what is measured), called
 * from `connections` lanes over a pool of as many connections, one message a call, in rounds that
 * take the three ways of waking the worker in turn:
 * - `in-transaction`: a NOTIFY inside every ingest transaction (the product before ADR 0035);
 * - `after-commit`: the product's way, one NOTIFY after the commit, coalesced per process;
 * - `none`: no wake-up at all, the floor.
 * PostgreSQL takes one database-wide lock at the commit of a transaction that notified, held
 * until the commit is flushed, so notifying transactions commit one at a time.
 */
export type NotifyMode = "in-transaction" | "after-commit" | "none";
export const NOTIFY_MODES: NotifyMode[] = ["in-transaction", "after-commit", "none"];
export type NotifyRound = { mode: NotifyMode; perSecond: number; p50: number; p99: number };

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
      const [result] = await ingestMessages({
        ctx,
        items: [{ input: { consumer: options.consumer, event_type: "invoice.paid", payload: samplePayload(n++) } }],
        notify: mode,
      });
      if (!result || "error" in result) throw result?.error ?? new Error("no result");
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

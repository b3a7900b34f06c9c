/**
 * The outcome write in-process, apart from HTTP and the worker's event loop: `--writers` concurrent
 * writers write `--deliveries` outcomes in batches of `--batch`, spread over `--endpoints`
 * endpoints, one variant against another in pairs in turn (on/off, then off/on). Prints, per pair,
 * the write rate and PostgreSQL's CPU time per attempt (its whole process tree, from /proc), and
 * their medians.
 * - `--toggle rollup` (part f of npm run bench, measureRollupCost): the attempt log's statement
 *   with the stats rollup appended — logAttempts, as every outcome write runs it, with the rollup's
 *   compaction beside the writes as a worker runs it — against the same insert alone
 *   (insertAttempts). lib/deliveries/outcomes/log-attempts.ts builds both.
 * - `--toggle failed-trigger`: the whole outcome write (recordOutcomes) on leased deliveries, with
 *   the failed_deliveries triggers on and off; `--failed-share 0.02` makes that share of the
 *   outcomes a delivery's last failure, which those triggers write down.
 * Options: --pairs 10 --deliveries 20000 --batch 50 --writers 2 --endpoints 20 --fsync-off
 *          --toggle rollup|failed-trigger --failed-share 0
 */
import { parseArgs } from "node:util";
import { cpuSnapshot } from "./cpu";
import { runAsScript } from "./system";
import { prepareDatabase, seedEndpoints } from "./database";
import { newId } from "../lib/ids";
import { createSql, type Sql } from "../lib/db/client";
import { insertAttempts, logAttempts } from "../lib/deliveries/outcomes/log-attempts";
import { recordOutcomes, type AttemptOutcome } from "../lib/deliveries/record-outcomes";
import { COMPACT_EVERY_MS, compactStats } from "../lib/stats/compact-stats";

/** One pair: the write rate (attempts/s) and PostgreSQL's CPU per attempt (µs) of each variant. */
export type WritePair = { on: number; off: number; ratio: number; pgOn: number; pgOff: number; cpuRatio: number; compactMs: number };

type Endpoint = { id: string; consumer: string };
type WriteOptions = { databaseUrl: string; postgresPid?: number; pairs: number; deliveries: number; batch: number; writers: number; endpoints: number; log: (line: string) => void };

const health = { failureThreshold: 1000, openForMs: 30_000, defaultConcurrency: 100 };
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Part f: the attempt log's statement with the stats rollup (on) and without it (off). */
export async function measureRollupCost(options: WriteOptions): Promise<WritePair[]> {
  return withWriters(options, "rollup", async (sql, endpoints) => (on) => {
    const outcomes = outcomesFor(endpoints, options.deliveries, 0);
    const write = on ? (batch: AttemptOutcome[]) => sql.begin((tx) => logAttempts(tx, batch)) : (batch: AttemptOutcome[]) => sql.begin((tx) => insertAttempts(tx, batch));
    return writeRound(sql, options, outcomes, write, on);
  });
}

/** The whole outcome write with the failed_deliveries triggers on and off. */
export async function measureFailedTriggerCost(options: WriteOptions & { failedPerMille: number }): Promise<WritePair[]> {
  return withWriters(options, "failed-trigger", async (sql, endpoints) => async (on) => {
    for (const trigger of ["deliveries_failed_insert", "deliveries_failed_update"]) {
      await sql.unsafe(`alter table deliveries ${on ? "enable" : "disable"} trigger ${trigger}`);
    }
    const outcomes = await lease(sql, outcomesFor(endpoints, options.deliveries, options.failedPerMille));
    return writeRound(sql, options, outcomes, (batch) => recordOutcomes(sql, { outcomes: batch, health }), true);
  });
}

export function summarizeWritePairs(pairs: WritePair[]) {
  const m = (pick: (p: WritePair) => number) => median(pairs.map(pick));
  const range = (pick: (p: WritePair) => number) => `${Math.min(...pairs.map(pick)).toFixed(3)}–${Math.max(...pairs.map(pick)).toFixed(3)}`;
  return {
    on: m((p) => p.on),
    off: m((p) => p.off),
    ratio: m((p) => p.ratio),
    ratioRange: range((p) => p.ratio),
    pgOn: m((p) => p.pgOn),
    pgOff: m((p) => p.pgOff),
    cpuRatio: m((p) => p.cpuRatio),
    cpuRange: range((p) => p.cpuRatio),
    compactMs: m((p) => p.compactMs),
  };
}

type Round = { rate: number; pgUs: number; compactMs: number };

/** A pool and endpoints of its own on the database, a warm-up round of each variant, then the pairs. */
async function withWriters(
  options: WriteOptions,
  label: string,
  variant: (sql: Sql, endpoints: Endpoint[]) => Promise<(on: boolean) => Promise<Round>>,
): Promise<WritePair[]> {
  const sql = createSql(options.databaseUrl, { max: options.writers + 2, name: `bench-${label}` });
  try {
    const round = await variant(sql, await seedEndpoints(sql, options.endpoints, `bench-${label}`));
    await round(true);
    await round(false);
    const pairs: WritePair[] = [];
    for (let i = 0; i < options.pairs; i++) {
      const order = i % 2 === 0 ? [true, false] : [false, true];
      const got = new Map<boolean, Round>();
      for (const on of order) got.set(on, await round(on));
      const on = got.get(true)!;
      const off = got.get(false)!;
      pairs.push({ on: on.rate, off: off.rate, ratio: on.rate / off.rate, pgOn: on.pgUs, pgOff: off.pgUs, cpuRatio: on.pgUs / off.pgUs, compactMs: on.compactMs });
      options.log(
        `  pair ${i + 1}: ${label} on ${Math.round(on.rate)}/s, PostgreSQL ${on.pgUs.toFixed(1)} µs/attempt (compactions ${Math.round(on.compactMs)} ms); ` +
          `off ${Math.round(off.rate)}/s, ${off.pgUs.toFixed(1)} µs/attempt; rate on/off ${(on.rate / off.rate).toFixed(3)}, CPU on/off ${(on.pgUs / off.pgUs).toFixed(3)}`,
      );
    }
    return pairs;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** `count` attempts that succeeded (or, `failedPerMille` of them, a delivery's last failure), round-robin over the endpoints. */
function outcomesFor(endpoints: Endpoint[], count: number, failedPerMille: number): AttemptOutcome[] {
  const token = newId("delivery");
  return Array.from({ length: count }, (_, i) => {
    const e = endpoints[i % endpoints.length]!;
    const failed = i % 1000 < failedPerMille;
    return {
      attemptId: newId("attempt"),
      deliveryId: newId("delivery"),
      messageId: newId("message"),
      endpointId: e.id,
      consumerId: e.consumer,
      attemptNumber: 1,
      trigger: "scheduled",
      // Part b's receiver answers 204 to everything; --failed-share makes some a last failure.
      success: !failed,
      statusCode: failed ? 503 : 204,
      error: null,
      errorDetail: null,
      responseBody: "",
      durationMs: 1 + (i % 7) + (i % 97 === 0 ? 250 : 0),
      requestHeaders: { "webhook-id": "x" },
      url: "http://127.0.0.1/",
      finishedAt: new Date(),
      leaseToken: token,
      next: { status: failed ? "failed" : "succeeded", attemptAt: null },
    };
  });
}

/** The outcomes' deliveries as a claim leaves them: queued, leased to their token, with their messages. */
async function lease(sql: Sql, outcomes: AttemptOutcome[]): Promise<AttemptOutcome[]> {
  const token = outcomes[0]!.leaseToken!;
  for (let start = 0; start < outcomes.length; start += 5000) {
    const chunk = outcomes.slice(start, start + 5000);
    await sql`insert into messages (id, consumer_id, event_type, payload)
      select unnest(${chunk.map((o) => o.messageId)}::text[]), unnest(${chunk.map((o) => o.consumerId)}::text[]), 'invoice.paid', '{}'`;
    await sql`insert into deliveries (id, message_id, endpoint_id, consumer_id, status, next_attempt_at)
      select unnest(${chunk.map((o) => o.deliveryId)}::text[]), unnest(${chunk.map((o) => o.messageId)}::text[]),
             unnest(${chunk.map((o) => o.endpointId)}::text[]), unnest(${chunk.map((o) => o.consumerId)}::text[]), 'pending', now()`;
    await sql`insert into delivery_queue (delivery_id, endpoint_id, consumer_id, next_attempt_at, lease_token)
      select unnest(${chunk.map((o) => o.deliveryId)}::text[]), unnest(${chunk.map((o) => o.endpointId)}::text[]),
             unnest(${chunk.map((o) => o.consumerId)}::text[]), now() + interval '1 hour', ${token}`;
  }
  await sql`vacuum analyze delivery_queue`;
  return outcomes;
}

/** The writers write every outcome; with `compaction`, the rollup's compaction runs beside them every COMPACT_EVERY_MS, as in a worker. */
async function writeRound(sql: Sql, options: WriteOptions, outcomes: AttemptOutcome[], write: (batch: AttemptOutcome[]) => Promise<unknown>, compaction: boolean): Promise<Round> {
  const before = cpuSnapshot({ postgres: options.postgresPid });
  const started = performance.now();
  let next = 0;
  let compactMs = 0;
  const compact = async () => {
    const t = performance.now();
    await compactStats({ ctx: { sql } });
    compactMs += performance.now() - t;
  };
  const compactor = compaction ? setInterval(() => void compact(), COMPACT_EVERY_MS) : undefined;
  await Promise.all(
    Array.from({ length: options.writers }, async () => {
      while (next < outcomes.length) await write(outcomes.slice(next, (next += options.batch)));
    }),
  );
  clearInterval(compactor);
  const writeMs = performance.now() - started;
  if (compaction) await compact();
  const after = cpuSnapshot({ postgres: options.postgresPid });
  const pgCpu = ((after?.seconds.postgres ?? 0) - (before?.seconds.postgres ?? 0)) * 1e6;
  return { rate: outcomes.length / (writeMs / 1000), pgUs: pgCpu / outcomes.length, compactMs };
}

async function main() {
  const { values } = parseArgs({
    options: {
      pairs: { type: "string", default: "10" },
      deliveries: { type: "string", default: "20000" },
      batch: { type: "string", default: "50" },
      writers: { type: "string", default: "2" },
      endpoints: { type: "string", default: "20" },
      "fsync-off": { type: "boolean", default: false },
      toggle: { type: "string", default: "rollup" },
      "failed-share": { type: "string", default: "0" },
    },
  });
  const toggle = values.toggle;
  if (toggle !== "rollup" && toggle !== "failed-trigger") throw new Error(`--toggle is rollup or failed-trigger, not ${toggle}`);
  const failedPerMille = Math.round(Number(values["failed-share"]) * 1000);
  const db = await prepareDatabase({ fsync: !values["fsync-off"], log: () => {} });
  try {
    const options: WriteOptions = {
      databaseUrl: db.url,
      postgresPid: db.postgresPid,
      pairs: Number(values.pairs),
      deliveries: Number(values.deliveries),
      batch: Number(values.batch),
      writers: Number(values.writers),
      endpoints: Number(values.endpoints),
      log: (line) => console.log(line),
    };
    console.log(
      `${options.pairs} pairs, ${toggle} on and off: ${options.deliveries} outcomes a round (${failedPerMille / 10} % a last failure), ` +
        `batches of ${options.batch}, ${options.writers} writers, ${options.endpoints} endpoints; ${db.description}`,
    );
    const pairs = toggle === "rollup" ? await measureRollupCost(options) : await measureFailedTriggerCost({ ...options, failedPerMille });
    const s = summarizeWritePairs(pairs);
    console.log(
      `medians: write rate ${Math.round(s.on)}/s with, ${Math.round(s.off)}/s without (on/off ${s.ratio.toFixed(3)}, ${s.ratioRange}); ` +
        `PostgreSQL ${s.pgOn.toFixed(1)} µs/attempt with, ${s.pgOff.toFixed(1)} without (on/off ${s.cpuRatio.toFixed(3)}, ${s.cpuRange}); compactions ${Math.round(s.compactMs)} ms a round`,
    );
  } finally {
    await db.stop();
  }
}

runAsScript(import.meta.filename, main);

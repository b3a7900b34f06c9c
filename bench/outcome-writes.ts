/**
 * `node --import tsx bench/outcome-writes.ts`: what the stats rollup costs the outcome write
 * itself, apart from HTTP and the worker's event loop. Queues leased deliveries by SQL, then has
 * `--writers` concurrent writers (the worker runs two) write their outcomes through recordOutcomes
 * in batches of `--batch` spread over `--endpoints` endpoints, with the rollup (and its
 * compaction beside the writes, as a worker runs it) and without it, in turn. Prints, per pair, the write rate
 * and PostgreSQL's CPU time per attempt (its whole process tree, from /proc), and their medians.
 * `--toggle failed-trigger` turns the failed_deliveries triggers off and on instead (the rollup
 * stays on), and `--failed-share 0.02` makes that share of the outcomes a delivery's last failure,
 * which those triggers write down.
 * Options: --pairs 10 --deliveries 20000 --batch 50 --writers 2 --endpoints 20 --fsync-off
 *          --toggle rollup|failed-trigger --failed-share 0
 */
import { parseArgs } from "node:util";
import { cpuSnapshot } from "./cpu";
import { prepareDatabase } from "./database";
import { newId } from "../lib/ids";
import { recordOutcomes, type AttemptOutcome } from "../lib/deliveries/record-outcomes";
import { COMPACT_EVERY_MS, compactStats } from "../lib/stats/compact-stats";
import { createSql } from "../lib/db/client";

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
const opt = {
  pairs: Number(values.pairs),
  deliveries: Number(values.deliveries),
  batch: Number(values.batch),
  writers: Number(values.writers),
  endpoints: Number(values.endpoints),
  toggle: values.toggle as "rollup" | "failed-trigger",
  failedPerMille: Math.round(Number(values["failed-share"]) * 1000),
};
if (opt.toggle !== "rollup" && opt.toggle !== "failed-trigger") throw new Error(`--toggle is rollup or failed-trigger, not ${opt.toggle}`);
const health = { failureThreshold: 1000, openForMs: 30_000, defaultConcurrency: 100 };
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  const db = await prepareDatabase({ fsync: !values["fsync-off"], log: () => {} });
  const sql = createSql(db.url, { max: opt.writers + 2, name: "outcome-writes" });
  const endpoints: { id: string; consumer: string }[] = [];
  for (let i = 0; i < opt.endpoints; i++) {
    const consumer = newId("consumer");
    const id = newId("endpoint");
    await sql`insert into consumers (id, uid, name) values (${consumer}, ${`c${i}`}, ${`c${i}`})`;
    await sql`insert into endpoints (id, consumer_id, url) values (${id}, ${consumer}, 'http://127.0.0.1:9/')`;
    endpoints.push({ id, consumer });
  }

  // Deliveries as a claim leaves them: queued, leased to a token, with their messages.
  const lease = async (): Promise<AttemptOutcome[]> => {
    const token = newId("delivery");
    const outcomes: AttemptOutcome[] = [];
    for (let i = 0; i < opt.deliveries; i++) {
      const e = endpoints[i % endpoints.length]!;
      const failed = i % 1000 < opt.failedPerMille;
      outcomes.push({
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
      });
    }
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
  };

  const round = async (on: boolean) => {
    const rollup = opt.toggle === "rollup" ? on : true;
    if (opt.toggle === "failed-trigger") {
      for (const trigger of ["deliveries_failed_insert", "deliveries_failed_update"]) {
        await sql.unsafe(`alter table deliveries ${on ? "enable" : "disable"} trigger ${trigger}`);
      }
    }
    const outcomes = await lease();
    const before = cpuSnapshot({ postgres: db.postgresPid });
    const started = performance.now();
    let next = 0;
    let compactMs = 0;
    const compact = async () => {
      const t = performance.now();
      await compactStats({ ctx: { sql } });
      compactMs += performance.now() - t;
    };
    // The rollup's compaction runs beside the writes as in a worker, every COMPACT_EVERY_MS.
    const compactor = rollup ? setInterval(() => void compact(), COMPACT_EVERY_MS) : undefined;
    await Promise.all(
      Array.from({ length: opt.writers }, async () => {
        while (next < outcomes.length) {
          const batch = outcomes.slice(next, (next += opt.batch));
          await recordOutcomes(sql, { outcomes: batch, health, rollup });
        }
      }),
    );
    clearInterval(compactor);
    const writeMs = performance.now() - started;
    if (rollup) await compact();
    const after = cpuSnapshot({ postgres: db.postgresPid });
    const pgCpu = ((after?.seconds.postgres ?? 0) - (before?.seconds.postgres ?? 0)) * 1e6;
    return { rate: outcomes.length / (writeMs / 1000), pgUs: pgCpu / outcomes.length, compactMs };
  };

  console.log(`${opt.pairs} pairs, ${opt.toggle} on and off: ${opt.deliveries} outcomes a round (${opt.failedPerMille / 10} % a last failure), batches of ${opt.batch}, ${opt.writers} writers, ${opt.endpoints} endpoints; ${db.description}`);
  await round(true); // warm-up
  await round(false);
  const pairs: { rateRatio: number; cpuRatio: number; on: number; off: number; pgOn: number; pgOff: number; compactMs: number }[] = [];
  for (let i = 0; i < opt.pairs; i++) {
    const order = i % 2 === 0 ? [true, false] : [false, true];
    const got = new Map<boolean, Awaited<ReturnType<typeof round>>>();
    for (const on of order) got.set(on, await round(on));
    const on = got.get(true)!;
    const off = got.get(false)!;
    pairs.push({ rateRatio: on.rate / off.rate, cpuRatio: on.pgUs / off.pgUs, on: on.rate, off: off.rate, pgOn: on.pgUs, pgOff: off.pgUs, compactMs: on.compactMs });
    console.log(
      `pair ${i + 1}: on ${Math.round(on.rate)}/s, PostgreSQL ${on.pgUs.toFixed(1)} µs/attempt (compactions ${Math.round(on.compactMs)} ms); ` +
        `off ${Math.round(off.rate)}/s, ${off.pgUs.toFixed(1)} µs/attempt; rate on/off ${(on.rate / off.rate).toFixed(3)}, CPU on/off ${(on.pgUs / off.pgUs).toFixed(3)}`,
    );
  }
  const m = (pick: (p: (typeof pairs)[number]) => number) => median(pairs.map(pick));
  console.log(
    `medians: write rate ${Math.round(m((p) => p.on))}/s with, ${Math.round(m((p) => p.off))}/s without (on/off ${m((p) => p.rateRatio).toFixed(3)}, ` +
      `${Math.min(...pairs.map((p) => p.rateRatio)).toFixed(3)}–${Math.max(...pairs.map((p) => p.rateRatio)).toFixed(3)}); ` +
      `PostgreSQL ${m((p) => p.pgOn).toFixed(1)} µs/attempt with, ${m((p) => p.pgOff).toFixed(1)} without (on/off ${m((p) => p.cpuRatio).toFixed(3)}, ` +
      `${Math.min(...pairs.map((p) => p.cpuRatio)).toFixed(3)}–${Math.max(...pairs.map((p) => p.cpuRatio)).toFixed(3)}); compactions ${Math.round(m((p) => p.compactMs))} ms a round`,
  );
  await sql.end();
  await db.stop();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

import { randomBytes } from "node:crypto";
import type { Sql } from "../lib/db/client";
import { newId } from "../lib/ids";
import type { BenchDatabase } from "./database";
import type { Receiver } from "./receiver";
import { measureDeliveryPairs, type DeliveryPair } from "./delivery-pairs";

/**
 * Part i: the queue by endpoint (issue 22). Disabling, auto-disabling or deleting an endpoint
 * locks its queue rows and cancels them while holding locks (lib/endpoints/lock-endpoints.ts,
 * auto-disable.ts, cancel-pending.sql). This seeds `rows` queued rows by SQL — retries scheduled a
 * day ahead, spread over `endpoints` endpoints of one consumer, so no claim reaches them — then
 * times what disabling one of those endpoints runs, with delivery_queue_endpoint_idx and without
 * (built and dropped in turn, median of `runs` each, rolled back), and prints the plan of its
 * first statement both ways. Then part b's delivery with and without the index beside that
 * backlog, in pairs (every lease and reschedule writes the index).
 */

const INDEX = "delivery_queue_endpoint_idx";

export type QueueIndexFigures = {
  rows: number;
  seedMs: number;
  perEndpoint: number;
  /** The disabling transaction (locks, cancel), ms: median and all runs, with and without the index. */
  disable: { with: number[]; without: number[] };
  plans: { with: string; without: string };
  pairs: DeliveryPair[];
};

async function hasIndex(sql: Sql): Promise<boolean> {
  const [row] = await sql<{ n: number }[]>`select count(*)::int as n from pg_indexes where indexname = ${INDEX}`;
  return row!.n > 0;
}

async function setIndex(sql: Sql, on: boolean): Promise<void> {
  if (on) await sql.unsafe(`create index if not exists ${INDEX} on delivery_queue (endpoint_id)`);
  else await sql.unsafe(`drop index if exists ${INDEX}`);
  await sql.unsafe("analyze delivery_queue");
}

/** `rows` messages, deliveries and queue rows for `endpointIds` (round-robin), due a day from now. */
async function seed(sql: Sql, consumerId: string, endpointIds: string[], rows: number): Promise<void> {
  const chunk = 100_000;
  for (let start = 0; start < rows; start += chunk) {
    const n = Math.min(chunk, rows - start);
    const prefix = `bq${start / chunk}_${randomBytes(4).toString("hex")}`;
    await sql.begin(async (tx) => {
      await tx`
        insert into messages (id, consumer_id, event_type, payload)
        select ${prefix} || '_m' || g, ${consumerId}, 'invoice.paid', '{"bench":"queue"}' from generate_series(1, ${n}) g`;
      await tx`
        insert into deliveries (id, message_id, endpoint_id, consumer_id, status, attempts, scheduled_attempts, next_attempt_at)
        select ${prefix} || '_d' || g, ${prefix} || '_m' || g, (${endpointIds}::text[])[1 + (g + ${start}) % ${endpointIds.length}], ${consumerId},
               'pending', 1, 1, now() + interval '1 day'
        from generate_series(1, ${n}) g`;
      await tx`
        insert into delivery_queue (delivery_id, endpoint_id, consumer_id, next_attempt_at)
        select ${prefix} || '_d' || g, (${endpointIds}::text[])[1 + (g + ${start}) % ${endpointIds.length}], ${consumerId}, now() + interval '1 day'
        from generate_series(1, ${n}) g`;
    });
  }
  await sql.unsafe("analyze messages; analyze deliveries; analyze delivery_queue");
}

/** What disabling `endpointId` runs under its locks (lockEndpoints "queued", then the cancel), rolled back; ms. */
async function timeDisable(sql: Sql, endpointId: string): Promise<number> {
  const started = performance.now();
  await sql
    .begin(async (tx) => {
      await tx`select 1 from delivery_queue where endpoint_id in (select ${endpointId}::text) order by delivery_id, kind for update`;
      await tx`select 1 from deliveries where id = any(array(select delivery_id from delivery_queue where endpoint_id in (select ${endpointId}::text))) order by id for update`;
      await tx`select 1 from endpoints where id in (select ${endpointId}::text) order by id for update`;
      await tx`select webhook_admin_cancel_pending(array[${endpointId}]::text[], 'endpoint_disabled')`;
      throw new RollBack();
    })
    .catch((error: unknown) => {
      if (!(error instanceof RollBack)) throw error;
    });
  return performance.now() - started;
}
class RollBack extends Error {}

async function plan(sql: Sql, endpointId: string): Promise<string> {
  const rows = await sql.unsafe<{ "QUERY PLAN": string }[]>(
    `explain (analyze, costs off, timing on, summary on)
     select 1 from delivery_queue where endpoint_id in (select $1::text) order by delivery_id, kind for update`,
    [endpointId],
  );
  return rows.map((r) => r["QUERY PLAN"]).join("\n");
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

export async function measureQueueIndex(
  ctx: { db: BenchDatabase; receiver: Receiver; env: NodeJS.ProcessEnv; logDir: string },
  options: { rows: number; endpoints: number; runs: number; pairs: number; deliveries: number; deliveryEndpointIds: string[]; log: (line: string) => void },
): Promise<QueueIndexFigures> {
  const { sql } = ctx.db;
  const had = await hasIndex(sql);
  const consumerId = newId("consumer");
  await sql`insert into consumers (id, uid, name) values (${consumerId}, 'bench-queue', 'bench-queue')`;
  const endpointIds = Array.from({ length: options.endpoints }, () => newId("endpoint"));
  // Endpoints by SQL (no secrets: nothing is ever sent to them); disabled at the end.
  await sql`
    insert into endpoints (id, consumer_id, url)
    select unnest(${endpointIds}::text[]), ${consumerId}, 'http://127.0.0.1:9/never'`;
  const seedStarted = performance.now();
  await seed(sql, consumerId, endpointIds, options.rows);
  const seedMs = performance.now() - seedStarted;
  const perEndpoint = Math.round(options.rows / options.endpoints);
  options.log(`  seeded ${options.rows.toLocaleString("en-US")} queued rows over ${options.endpoints} endpoints (${perEndpoint} each) in ${(seedMs / 1000).toFixed(0)} s`);

  const disable = { with: [] as number[], without: [] as number[] };
  const plans = { with: "", without: "" };
  for (let i = 0; i < options.runs; i++) {
    for (const on of i % 2 === 0 ? [true, false] : [false, true]) {
      await setIndex(sql, on);
      // A different endpoint each run: none is read from a warmer cache than the others.
      const target = endpointIds[(i * 2 + (on ? 0 : 1)) % endpointIds.length]!;
      if (i === 0) plans[on ? "with" : "without"] = await plan(sql, target);
      disable[on ? "with" : "without"].push(await timeDisable(sql, target));
    }
  }
  options.log(`  disabling one endpoint (${perEndpoint} of ${options.rows.toLocaleString("en-US")} queued rows), locks and cancel, rolled back:`);
  options.log(`    with ${INDEX}: median ${median(disable.with).toFixed(1)} ms (${disable.with.map((v) => v.toFixed(1)).join(", ")})`);
  options.log(`    without:        median ${median(disable.without).toFixed(1)} ms (${disable.without.map((v) => v.toFixed(1)).join(", ")})`);
  options.log(`  plan of the queue lock, with:\n${plans.with.replace(/^/gm, "    ")}\n  without:\n${plans.without.replace(/^/gm, "    ")}`);

  let pairs: DeliveryPair[] = [];
  if (options.pairs > 0) {
    pairs = await measureDeliveryPairs(ctx, {
      label: "queue index",
      pairs: options.pairs,
      deliveries: options.deliveries,
      endpointIds: options.deliveryEndpointIds,
      log: options.log,
      on: {},
      off: {},
      prepare: (variant) => setIndex(sql, variant === "on"),
    });
  }
  await setIndex(sql, had);
  return { rows: options.rows, seedMs, perEndpoint, disable, plans, pairs };
}

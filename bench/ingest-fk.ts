/**
 * `node --import tsx bench/ingest-fk.ts [--days 35] [--rounds 200]`: ingest's one statement (its
 * messages, their deliveries and queue rows: lib/messages/write-messages.ts, which writes them) with
 * its foreign-key checks on PostgreSQL's default plan cache mode and on generic plans
 * (`genericChecks`: `set_config('plan_cache_mode', 'force_generic_plan', true)` in the statement, as ingest does),
 * alternating, on a database with `days` day partitions of deliveries and messages. Prints the
 * median time of a statement of 100 messages and of 1, each with one delivery.
 */
import { parseArgs } from "node:util";
import { parseConfig } from "../lib/config";
import { createSql } from "../lib/db/client";
import { newId } from "../lib/ids";
import { ctxOver } from "../lib/open-ctx";
import type { PreparedMessage } from "../lib/messages/ingest-types";
import { writeMessages } from "../lib/messages/write-messages";
import { makePartitions } from "../lib/retention/partitions";
import { prepareDatabase } from "./database";
import { productEnv } from "./product";
import { percentile } from "./stats";

const { values } = parseArgs({ options: { days: { type: "string", default: "35" }, rounds: { type: "string", default: "200" } } });

const db = await prepareDatabase({ fsync: false, log: () => {} });
const sql = createSql(db.url, { max: 1, name: "ingest-fk" });
const ctx = ctxOver(sql, { type: "system" }, parseConfig(productEnv(db.url)));
for (let day = Number(values.days); day >= 0; day--) await makePartitions({ ctx, now: Date.now() - day * 86_400_000 });
const [counted] = await sql<{ partitions: number }[]>`select count(*)::int as partitions from pg_inherits where inhparent = 'deliveries'::regclass`;
const partitions = counted!.partitions;
const consumer = newId("consumer");
const endpoint = newId("endpoint");
await sql`insert into consumers (id, uid, name) values (${consumer}, 'fk', 'fk')`;
await sql`insert into endpoints (id, consumer_id, url) values (${endpoint}, ${consumer}, 'http://127.0.0.1:9/')`;
const payload = JSON.stringify({ blob: "x".repeat(150) });

async function write(generic: boolean, size: number): Promise<number> {
  const now = new Date();
  const rows: PreparedMessage[] = Array.from({ length: size }, (_, index) => ({
    index,
    payload,
    channels: null,
    lineKeys: null,
    tags: null,
    endpointIds: [endpoint],
    filteredEndpointIds: null,
    polled: false,
    message: { id: newId("message", now.getTime()), consumer_id: consumer, event_type: "a.b", event_id: null, created_at: now.toISOString(), deliveries: 1 },
  }));
  const started = performance.now();
  await writeMessages(sql, rows, { now, firstAttemptAt: now, isTest: false, traceparent: null, genericChecks: generic });
  return performance.now() - started;
}

console.log(`${partitions} partitions of deliveries; statements alternate, the first 20 of each size left out`);
for (const size of [100, 1]) {
  const times = { default: [] as number[], generic: [] as number[] };
  const rounds = Number(values.rounds) * (size === 1 ? 4 : 1);
  for (let round = 0; round < rounds; round++) {
    const generic = round % 2 === 1;
    const ms = await write(generic, size);
    if (round >= 20) times[generic ? "generic" : "default"].push(ms);
  }
  const d = percentile(times.default, 50);
  const g = percentile(times.generic, 50);
  console.log(`${size} message${size > 1 ? "s" : ""} a statement: default ${d.toFixed(2)} ms, generic ${g.toFixed(2)} ms, ratio ${(g / d).toFixed(3)} (medians of ${times.generic.length})`);
}
await sql.end();
await db.stop();

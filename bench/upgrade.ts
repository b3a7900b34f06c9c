/**
 * The upgrade of an install with data to this release, as `npm start` or `npm run migrate` runs it:
 * a database at release 0.2.0's schema (migration 0014; `--from N` for another) filled by SQL with
 * `--messages` messages (one delivery each, with an event id and a payload of about 400 bytes) and
 * `--attempts` attempts, then migrated by the normal migration while a write — a message and its
 * delivery, as the older release's ingest writes them — is made every 2 ms. Prints how long the migration took, how
 * long the writes waited (the slowest is the time writes were blocked), and every table's rows
 * before and after. Figures only: it fails on nothing but a lost row or a failed write.
 *
 *   node --import tsx bench/upgrade.ts [--messages 2000000] [--attempts 10000000] [--from 14]
 */
import { parseArgs } from "node:util";
import { createSql, type Sql } from "../lib/db/client";
import { isRetryableConflict } from "../lib/db/errors";
import { migrateDatabase } from "../lib/db/migrate";
import { countRows } from "../lib/db/row-counts";
import { retryOnConflict } from "../lib/db/retry";
import { newId } from "../lib/ids";
import { prepareDatabase } from "./database";
import { percentile } from "./stats";

const { values } = parseArgs({
  options: {
    messages: { type: "string", default: "2000000" },
    attempts: { type: "string", default: "10000000" },
    from: { type: "string", default: "14" },
  },
});
const messages = Number(values.messages);
const attempts = Number(values.attempts);
const from = Number(values.from);
const CHUNK = 250_000;
const ENDPOINTS = 20;
const log = (line: string) => console.log(line);

async function timed<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await fn();
  log(`  ${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return result;
}

/**
 * The rows, loaded as a restore would: the big tables' secondary indexes dropped for the load and
 * built again after it. Messages spread over the last 30 days, ids in time order.
 */
async function seed(sql: Sql) {
  const endMs = Date.now() - 3_600_000;
  const stepMs = (30 * 86_400_000) / messages;
  await sql`insert into consumers (id, uid, name) values ('con_upgrade', 'upgrade', 'Upgrade')`;
  await sql`
    insert into endpoints (id, consumer_id, url)
    select 'ep_upgrade' || n, 'con_upgrade', 'https://example.com/hook/' || n from generate_series(1, ${ENDPOINTS}) n`;
  const big = ["messages", "deliveries", "attempts"];
  const indexes = await sql<{ name: string; def: string }[]>`
    select i.indexname as name, i.indexdef as def from pg_indexes i
    where i.schemaname = 'public' and i.tablename = any(${big})
      and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`;
  for (const { name } of indexes) await sql.unsafe(`drop index "${name}"`);
  const startMs = endMs - messages * stepMs;
  const idAt = (prefix: string, n: string) => `'${prefix}_' || lpad(to_hex(${startMs}::bigint + floor(${n} * ${stepMs}::float8)::bigint), 14, '0') || lpad(to_hex(${n}), 12, '0')`;
  await timed(`${messages.toLocaleString("en")} messages and their deliveries`, async () => {
    for (let first = 1; first <= messages; first += CHUNK) {
      const last = Math.min(messages, first + CHUNK - 1);
      await sql.unsafe(`
        insert into messages (id, consumer_id, event_type, event_id, payload, is_test, created_at)
        select ${idAt("msg", "n")}, 'con_upgrade', 'invoice.paid', 'evt_' || n,
               json_build_object('customer', 'cus_' || (n % 5000), 'amount', n % 100000, 'currency', 'eur', 'lines',
                                 json_build_array(repeat('x', 200), n), 'status', 'paid')::text,
               false, to_timestamp((${startMs} + n * ${stepMs}::float8) / 1000.0)
        from generate_series(${first}, ${last}) n`);
      await sql.unsafe(`
        insert into deliveries (id, message_id, endpoint_id, consumer_id, status, attempts, scheduled_attempts, created_at, updated_at)
        select ${idAt("dlv", "n")}, ${idAt("msg", "n")}, 'ep_upgrade' || (1 + n % ${ENDPOINTS}), 'con_upgrade', 'succeeded',
               ${Math.max(1, Math.round(attempts / messages))}, ${Math.max(1, Math.round(attempts / messages))},
               to_timestamp((${startMs} + n * ${stepMs}::float8) / 1000.0), to_timestamp((${startMs} + n * ${stepMs}::float8) / 1000.0)
        from generate_series(${first}, ${last}) n`);
    }
  });
  await timed(`${attempts.toLocaleString("en")} attempts`, async () => {
    const perMessage = attempts / messages;
    for (let first = 1; first <= attempts; first += CHUNK * 2) {
      const last = Math.min(attempts, first + CHUNK * 2 - 1);
      // Attempt a belongs to message ceil(a / perMessage).
      const m = `greatest(1, ceil(a / ${perMessage}))::bigint`;
      await sql.unsafe(`
        insert into attempts (id, delivery_id, message_id, endpoint_id, consumer_id, attempt_number, trigger, success, status_code,
                              response_body, duration_ms, request_headers, created_at)
        select ${idAt("att", "a")}, ${idAt("dlv", m)}, ${idAt("msg", m)}, 'ep_upgrade' || (1 + ${m} % ${ENDPOINTS}), 'con_upgrade',
               1 + (a % ${Math.max(1, Math.round(perMessage))}), 'scheduled', a % 10 <> 0, case when a % 10 = 0 then 503 else 200 end,
               case when a % 10 = 0 then 'upstream unavailable' else 'ok' end, 5 + a % 200,
               '{"content-type": "application/json", "webhook-id": "x"}'::jsonb, to_timestamp((${startMs} + ${m} * ${stepMs}::float8) / 1000.0)
        from generate_series(${first}, ${last}) a`);
    }
  });
  await timed(`${indexes.length} secondary indexes built`, async () => {
    for (const { def } of indexes) await sql.unsafe(def);
  });
  await timed("analyze", () => sql`analyze`);
  const [size] = await sql<{ size: string }[]>`select pg_size_pretty(pg_database_size(current_database())) as size`;
  log(`  database: ${size!.size}`);
}

const db = await prepareDatabase({ fsync: true, log });
const sql = createSql(db.url, { max: 2, name: "upgrade-bench" });
const writer = createSql(db.url, { max: 1, name: "upgrade-bench-writes" });
try {
  log(`\nThe schema of migration ${String(from).padStart(4, "0")} (release 0.2.0 is 0014), filled by SQL:`);
  await sql.unsafe("drop schema public cascade; create schema public; drop schema if exists drizzle cascade");
  await migrateDatabase(db.url, { upTo: from });
  await seed(sql);
  const before = await countRows(sql);

  log("\nThe migration, with a message and its delivery written every 2 ms:");
  let migrating = true;
  const waits: number[] = [];
  let deadlocks = 0;
  const writing = (async () => {
    while (migrating) {
      const started = performance.now();
      const id = newId("message");
      // As the release being upgraded from writes while its processes serve: the message, then its
      // delivery, in one transaction, retried when PostgreSQL ends it for a deadlock with the
      // migration (as that release's ingest does).
      await retryOnConflict(async () => {
        try {
          await writer.begin(async (tx) => {
            await tx`insert into messages (id, consumer_id, event_type, payload, is_test) values (${id}, 'con_upgrade', 'invoice.paid', '{"during":true}', false)`;
            await tx`insert into deliveries (id, message_id, endpoint_id, consumer_id, status) values (${newId("delivery")}, ${id}, 'ep_upgrade1', 'con_upgrade', 'pending')`;
          });
        } catch (error) {
          if (isRetryableConflict(error)) deadlocks += 1;
          throw error;
        }
      });
      waits.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  })();
  const started = performance.now();
  try {
    await migrateDatabase(db.url);
  } finally {
    migrating = false;
  }
  const migrationMs = performance.now() - started;
  await writing;
  const after = await countRows(sql);

  const sorted = [...waits].sort((a, b) => a - b);
  log(`  migrate (the migrations in steps, each step's indexes built CONCURRENTLY after it, graphile-worker's schema, the SQL functions): ${(migrationMs / 1000).toFixed(1)} s`);
  log(`  writes meanwhile: ${waits.length}, p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms, slowest ${sorted.at(-1)!.toFixed(0)} ms (the time writes were blocked); ${deadlocks} ended by PostgreSQL for a deadlock with the migration and retried`);
  log("\nRows, before → after (the writes meanwhile add to messages and deliveries):");
  const lost: string[] = [];
  for (const [table, n] of Object.entries(before)) {
    const grew = table === "messages" || table === "deliveries" ? waits.length : 0;
    if (after[table] !== n + grew) lost.push(table);
    if (n > 0 || grew > 0) log(`  ${table.padEnd(24)} ${n.toLocaleString("en").padStart(12)} → ${(after[table] ?? 0).toLocaleString("en").padStart(12)}`);
  }
  if (lost.length > 0) throw new Error(`rows differ after the upgrade in: ${lost.join(", ")}`);
  log("  every row kept");
} finally {
  await writer.end();
  await sql.end();
  await db.stop();
}

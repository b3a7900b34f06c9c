import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { runMigrations } from "graphile-worker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSql } from "../../lib/db/client";
import { applySqlFunctions } from "../../lib/db/functions";
import { migrateDatabase } from "../../lib/db/migrate";
import { deliveryIdFor, newId } from "../../lib/ids";
import { systemCtx } from "../../lib/open-ctx";
import { DAY_MS, PARTITIONED, PROVEN_AHEAD, dayPartitions, makePartitions, startOfDay } from "../../lib/retention/partitions";
import type { WorkerHandle } from "../../worker/runtime";
import { apiClient } from "../helpers/api";
import { startReceiver, waitFor } from "../helpers/receiver";
import { startTestWorker } from "../helpers/worker";

/**
 * The upgrade to time partitions (migrations 0017 and 0019, ADR 0034) on a database that has data: the
 * file's database is brought to the schema before it (0016) and filled — through the API and the
 * worker (delivered, and retrying against a receiver that is down) and by SQL (thousands of older
 * messages with their deliveries and attempts) — then migrated by the normal migration. Every
 * table keeps every row; ingest goes on while the migration runs, waiting at most for its catalog
 * changes; afterwards the sweep makes the days ahead without scanning the old rows, old messages
 * read back, retrying ones are still retried, and new ones are delivered; a retried ingest, a resend
 * and a recovery still make one delivery per message and endpoint (the default partition's unique
 * index is the arbiter for the old messages).
 */
process.env.DELIVERY_SCHEDULE = "0,1h";
process.env.SWEEP_INTERVAL = "1h";
process.env.CIRCUIT_FAILURE_THRESHOLD = "1000";

const url = process.env.DATABASE_URL!;
const before = mkdtempSync(path.join(tmpdir(), "wa-pre-partitions-"));
const sql = createSql(url, { max: 2, name: "partition-upgrade" });
let worker: WorkerHandle | null = null;
let api: Awaited<ReturnType<typeof apiClient>>;
let ok: Awaited<ReturnType<typeof startReceiver>>;
let down: Awaited<ReturnType<typeof startReceiver>>;
const OLD_MESSAGES = 6_000;

/** Every table of the app's schema, by its row count (partitioned tables counted through their parent). */
async function rowCounts(): Promise<Record<string, number>> {
  const tables = await sql<{ name: string }[]>`
    select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition order by 1`;
  const counts: Record<string, number> = {};
  for (const { name } of tables) counts[name] = (await sql<{ n: number }[]>`select count(*)::int as n from ${sql(name)}`)[0]!.n;
  return counts;
}

beforeAll(async () => {
  // The schema as the release before partitioning left it: migrations up to 0016, graphile's own
  // schema and the SQL functions.
  cpSync("drizzle", before, { recursive: true });
  const journal = JSON.parse(readFileSync(path.join(before, "meta", "_journal.json"), "utf8")) as { entries: { idx: number }[] };
  journal.entries = journal.entries.filter((e) => e.idx <= 16);
  writeFileSync(path.join(before, "meta", "_journal.json"), JSON.stringify(journal));
  await sql.unsafe("drop schema public cascade; create schema public; drop schema if exists graphile_worker cascade; drop schema if exists drizzle cascade");
  await migrateDatabase(url, { migrationsFolder: before });
  await runMigrations({ connectionString: url });
  await applySqlFunctions(sql);

  api = await apiClient();
  ok = await startReceiver((_req, res) => res.writeHead(200).end("ok"));
  down = await startReceiver((_req, res) => res.writeHead(503).end("down"));
  worker = await startTestWorker();
}, 120_000);

afterAll(async () => {
  await worker?.stop();
  await ok?.close();
  await down?.close();
  await sql.end();
  rmSync(before, { recursive: true, force: true });
});

const send = async (n: number) => {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await api.post("/api/v1/messages", { consumer: "up", event_type: "invoice.paid", payload: { i } });
    expect(res.status, res.text).toBe(202);
    ids.push(res.body.id as string);
  }
  return ids;
};
const attemptsOf = async (ids: string[]) => (await sql<{ n: number }[]>`select count(*)::int as n from attempts where message_id = any(${ids})`)[0]!.n;

describe("upgrading a database with data to time partitions", () => {
  it("keeps every row of every table, blocks ingest only for the catalog changes, and delivers and reads afterwards", async () => {
    expect((await sql<{ kind: string }[]>`select relkind as kind from pg_class where relname = 'messages'`)[0]!.kind).toBe("r");
    const consumer = await api.post("/api/v1/consumers", { uid: "up", name: "Upgrade" });
    const consumerId = consumer.body.id as string;
    const okEndpoint = (await api.post("/api/v1/consumers/up/endpoints", { url: ok.url })).body.id as string;
    const downEndpoint = (await api.post("/api/v1/consumers/up/endpoints", { url: down.url })).body.id as string;
    const early = await send(10);
    // Each message's attempt at each endpoint: delivered to one, failed (and retrying in an hour) at the other.
    await waitFor(async () => (await attemptsOf(early)) === 20, { what: "the first attempts" });

    // Older traffic by SQL: a message a minute back over three days, each delivered with one attempt.
    const now = Date.now();
    const rows = Array.from({ length: OLD_MESSAGES }, (_, i) => {
      const at = now - 3 * DAY_MS + i * Math.floor((3 * DAY_MS - 3_600_000) / OLD_MESSAGES);
      return { at, id: newId("message", at), delivery: newId("delivery", at), attempt: newId("attempt", at + 500) };
    });
    await sql`
      insert into messages (id, consumer_id, event_type, payload, created_at)
      select unnest(${rows.map((r) => r.id)}::text[]), ${consumerId}, 'invoice.paid', '{"old":true}', unnest(${rows.map((r) => new Date(r.at).toISOString())}::timestamptz[])`;
    await sql`
      insert into deliveries (id, message_id, endpoint_id, consumer_id, status, attempts, created_at)
      select unnest(${rows.map((r) => r.delivery)}::text[]), unnest(${rows.map((r) => r.id)}::text[]), ${okEndpoint}, ${consumerId}, 'succeeded', 1,
             unnest(${rows.map((r) => new Date(r.at).toISOString())}::timestamptz[])`;
    await sql`
      insert into attempts (id, delivery_id, message_id, endpoint_id, consumer_id, attempt_number, trigger, success, status_code, duration_ms, created_at)
      select unnest(${rows.map((r) => r.attempt)}::text[]), unnest(${rows.map((r) => r.delivery)}::text[]), unnest(${rows.map((r) => r.id)}::text[]),
             ${okEndpoint}, ${consumerId}, 1, 'scheduled', true, 200, 7, unnest(${rows.map((r) => new Date(r.at + 500).toISOString())}::timestamptz[])`;
    await worker!.stop();
    worker = null;
    const countsBefore = await rowCounts();
    expect(countsBefore.messages).toBe(OLD_MESSAGES + 10);

    // The migration, with ingest going on: every request answered 202, and the slowest waited
    // about as long as the migration's transaction.
    let migrating = true;
    const latencies: number[] = [];
    const ingest = (async () => {
      while (migrating) {
        const started = performance.now();
        const res = await api.post("/api/v1/messages", { consumer: "up", event_type: "invoice.paid", payload: { during: true } });
        latencies.push(performance.now() - started);
        expect(res.status, res.text).toBe(202);
      }
    })();
    const started = performance.now();
    await migrateDatabase(url);
    const migrationMs = performance.now() - started;
    migrating = false;
    await ingest;
    console.log(
      `partition upgrade of ${OLD_MESSAGES + 10} messages: migration ${migrationMs.toFixed(0)} ms, ` +
        `${latencies.length} ingests meanwhile, slowest ${Math.max(...latencies).toFixed(0)} ms`,
    );
    expect(latencies.length).toBeGreaterThan(0);

    // Every row is still there (the ingests made meanwhile added messages and deliveries only).
    const countsAfter = await rowCounts();
    const during = latencies.length;
    const grew: Record<string, number> = { messages: during, deliveries: 2 * during, delivery_queue: 2 * during };
    for (const [table, n] of Object.entries(countsBefore)) expect(countsAfter[table], table).toBe(n + (grew[table] ?? 0));
    for (const { table } of PARTITIONED) {
      expect((await sql<{ kind: string }[]>`select relkind as kind from pg_class where relname = ${table}`)[0]!.kind, table).toBe("p");
      const [inDefault] = await sql<{ n: number }[]>`select count(*)::int as n from ${sql(`${table}_default`)}`;
      expect(inDefault!.n, table).toBe(countsAfter[table]);
    }

    // The sweep's days start after the default partition's newest row, proven free of old rows by a
    // constraint it validates online and drops again.
    const made = await makePartitions(systemCtx());
    expect(made.length).toBeGreaterThan(0);
    const days = await dayPartitions(sql, "messages");
    expect(days[0]!.day).toBeGreaterThan(startOfDay(Date.now()));
    expect((await dayPartitions(sql, "deliveries"))[0]!.day).toBeGreaterThan(startOfDay(Date.now()));
    // While the default partition holds the history, the days are made PROVEN_AHEAD at once (each
    // proof reads all of it).
    expect(days.at(-1)!.day).toBe(startOfDay(Date.now()) + PROVEN_AHEAD * DAY_MS);
    expect((await sql`select 1 from pg_constraint where conname like '%_default_bound'`).length).toBe(0);

    // Afterwards: old messages read back with their attempts, the retrying ones are retried, new
    // ones are delivered.
    worker = await startTestWorker();
    const old = await api.get(`/api/v1/messages/${rows[0]!.id}`);
    expect(old.status).toBe(200);
    expect(old.body.payload).toEqual({ old: true });
    const oldAttempts = await api.get(`/api/v1/messages/${rows[0]!.id}/attempts`);
    expect(oldAttempts.body.data.map((a: { id: string }) => a.id)).toEqual([rows[0]!.attempt]);
    const list = await api.get("/api/v1/messages?consumer=up&limit=100");
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(100);
    const later = await send(5);
    await waitFor(async () => (await attemptsOf(later)) === 10, { what: "the new messages' attempts" });
    const [statuses] = await sql<{ ok: number }[]>`
      select count(*) filter (where status = 'succeeded')::int as ok from deliveries where message_id = any(${later})`;
    expect(statuses!.ok).toBe(5);
    // One delivery per message and endpoint still. A retried ingest (the same Idempotency-Key) is the
    // same message with the same deliveries.
    const key = { "idempotency-key": "upgrade-retry" };
    const first = await api.post("/api/v1/messages", { consumer: "up", event_type: "invoice.paid", payload: { retried: true } }, key);
    const again = await api.post("/api/v1/messages", { consumer: "up", event_type: "invoice.paid", payload: { retried: true } }, key);
    expect(again.body.id).toBe(first.body.id);
    const deliveriesOf = (message: string) =>
      sql<{ id: string; endpoint_id: string; p: string }[]>`
        select id, endpoint_id, tableoid::regclass::text as p from deliveries where message_id = ${message} order by endpoint_id`;
    expect(await deliveriesOf(first.body.id as string)).toHaveLength(2);
    // An old message (in the default partition): a resend to its endpoint reuses its delivery; two
    // resends at once to the endpoint it never had make one, in the default partition too.
    const oldOne = rows[0]!;
    expect((await api.post(`/api/v1/messages/${oldOne.id}/resend`, { endpoint_id: okEndpoint })).body.delivery_id).toBe(oldOne.delivery);
    const resends = await Promise.all([0, 1].map(() => api.post(`/api/v1/messages/${oldOne.id}/resend`, { endpoint_id: downEndpoint })));
    for (const r of resends) expect(r.status, r.text).toBe(202);
    const resent = (await deliveriesOf(oldOne.id)).filter((d) => d.endpoint_id === downEndpoint);
    expect(resent).toEqual([{ id: resends[0]!.body.delivery_id, endpoint_id: downEndpoint, p: "deliveries_default" }]);
    expect(resends[1]!.body.delivery_id).toBe(resent[0]!.id);
    // A recovery that takes another old message for the endpoint it never had, then a resend of it.
    const oldTwo = rows[1]!;
    const run = await api.post(`/api/v1/endpoints/${downEndpoint}/recover`, {
      since: new Date(oldTwo.at - 1000).toISOString(),
      until: new Date(oldTwo.at + 1000).toISOString(),
      include_never_attempted: true,
      rate_per_second: 1000,
    });
    expect(run.status, run.text).toBe(202);
    await waitFor(async () => (await sql`select 1 from recovery_items where recovery_id = ${run.body.id} and outcome <> 'pending'`).length > 0, {
      what: "the recovery's item queued",
    });
    const recovered = (await deliveriesOf(oldTwo.id)).filter((d) => d.endpoint_id === downEndpoint);
    expect(recovered).toEqual([{ id: expect.any(String), endpoint_id: downEndpoint, p: "deliveries_default" }]);
    expect((await api.post(`/api/v1/messages/${oldTwo.id}/resend`, { endpoint_id: downEndpoint })).body.delivery_id).toBe(recovered[0]!.id);
    await expect(
      sql`insert into deliveries (id, message_id, endpoint_id, consumer_id) values (${deliveryIdFor(oldTwo.id)}, ${oldTwo.id}, ${downEndpoint}, ${consumerId})`,
    ).rejects.toMatchObject({ code: "23505" });

    // A delivery in the default partition still has to name a message that exists (0017's key stays
    // on it; day partitions have none, ADR 0034).
    await expect(
      sql`insert into deliveries (id, message_id, endpoint_id, consumer_id) values (${newId("delivery")}, 'msg_missing', ${okEndpoint}, ${consumerId})`,
    ).rejects.toMatchObject({ code: "23503" });
  });
});

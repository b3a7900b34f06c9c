import { beforeAll, describe, expect, it } from "vitest";
import { getSql } from "../../lib/db/client";
import { deliveryIdFor, idBoundAt, newId } from "../../lib/ids";
import { systemCtx } from "../../lib/open-ctx";
import { dropExpiredPartitions } from "../../lib/retention/drop-expired-partitions";
import { DAY_MS, PARTITIONED, PARTITIONS_AHEAD, attachDay, dayPartitions, detachAndDrop, detachLocks, keyTables, makePartitions, startOfDay } from "../../lib/retention/partitions";
import { consumerWithEndpoint, createEndpoint, sendMessage } from "../helpers/fixtures";
import { lifecycleFixture } from "../helpers/lifecycle";
import { waitFor } from "../helpers/receiver";

/**
 * Time partitions (lib/retention/partitions.ts, ADR 0034): the sweep makes a partition per UTC day
 * ahead of time, so new rows never land in the default partition; a day of messages past
 * RETENTION_PERIOD whose deliveries have all ended is dropped whole, with its day of deliveries and
 * its attempts (those in later days too); a day with a pending delivery stays; a day of attempts
 * goes once every older message has; audit and alert days go after AUDIT_RETENTION. A delivery made
 * days after its message (a resend, a recovery) is in the message's day, where that day's unique
 * index keeps one delivery per message and endpoint.
 */
process.env.RETENTION_PERIOD = "1d";
process.env.AUDIT_RETENTION = "2d";
process.env.DELIVERY_SCHEDULE = "0,1h";
// The worker's own sweep stays out of the way; the tests make and drop partitions when they mean to.
process.env.SWEEP_INTERVAL = "1h";

const t = lifecycleFixture();
const sql = () => getSql();
const now = Date.now();
const today = startOfDay(now);
const dayTag = (day: number) => new Date(day).toISOString().slice(0, 10).replace(/-/g, "");
const partitionOf = async (table: string, id: string) =>
  (await sql()<{ p: string }[]>`select tableoid::regclass::text as p from ${sql()(table)} where id = ${id}`)[0]?.p;
/** Lock requests waiting in this database (pg_locks shows the whole cluster's). */
const waiting = async () =>
  (await sql()<{ n: number }[]>`select count(*)::int as n from pg_locks where not granted and database = (select oid from pg_database where datname = current_database())`)[0]!.n;
const exists = async (name: string) => (await sql()<{ n: number }[]>`select count(*)::int as n from pg_class where relname = ${name}`)[0]!.n === 1;

let consumerId: string;
let endpointId: string;

beforeAll(async () => {
  // Days from six days ago: a fresh database's default partitions hold nothing of those days (the
  // audit rows this file's set-up wrote are cleared first), so they can be made in the past.
  await sql()`delete from audit_events`;
  for (const { table } of PARTITIONED) {
    for (const p of await dayPartitions(sql(), table)) await sql().unsafe(`alter table ${table} detach partition ${p.name}; drop table ${p.name}`);
  }
  await makePartitions({ ctx: systemCtx(), now: now - 6 * DAY_MS });
  await makePartitions({ ctx: systemCtx() });
  ({ consumerId, endpointId } = await consumerWithEndpoint(t.api, t.ok.url, { consumer: { uid: "parts" } }));
  await oldAuditRows();
});

/** A message made at `at`, its delivery (ended, or pending with a queue row), and an attempt at each of `attemptsAt`. */
async function oldMessage(at: number, { status = "succeeded", attemptsAt = [at + 1000] }: { status?: string; attemptsAt?: number[] } = {}) {
  const id = newId("message", at);
  const deliveryId = newId("delivery", at);
  await sql()`insert into messages (id, consumer_id, event_type, payload, created_at) values (${id}, ${consumerId}, 'invoice.paid', '{}', ${new Date(at)})`;
  await sql()`
    insert into deliveries (id, message_id, endpoint_id, consumer_id, status, attempts, created_at)
    values (${deliveryId}, ${id}, ${endpointId}, ${consumerId}, ${status}, ${attemptsAt.length}, ${new Date(at)})`;
  if (status === "pending") {
    await sql()`insert into delivery_queue (delivery_id, kind, endpoint_id, consumer_id, next_attempt_at) values (${deliveryId}, 0, ${endpointId}, ${consumerId}, now() + interval '1 hour')`;
  }
  if (status === "failed") {
    await sql()`
      insert into failed_deliveries (delivery_id, message_id, endpoint_id, consumer_id, message_created_at)
      values (${deliveryId}, ${id}, ${endpointId}, ${consumerId}, ${new Date(at)}) on conflict do nothing`;
  }
  const attemptIds: string[] = [];
  for (const [i, when] of attemptsAt.entries()) {
    const attemptId = newId("attempt", when);
    attemptIds.push(attemptId);
    await sql()`
      insert into attempts (id, delivery_id, message_id, endpoint_id, consumer_id, attempt_number, trigger, success, status_code, duration_ms, created_at)
      values (${attemptId}, ${deliveryId}, ${id}, ${endpointId}, ${consumerId}, ${i + 1}, 'scheduled', true, 200, 5, ${new Date(when)})`;
  }
  return { id, deliveryId, attemptIds };
}


const old = today - 5 * DAY_MS;
const held = today - 4 * DAY_MS;

/** Audit and alert rows of past days, written while their days' partitions exist. */
async function oldAuditRows() {
    await sql()`
      insert into audit_events (id, actor_type, action, target_type, target_id, created_at)
      values (${newId("audit", old + 1000)}, 'system', 'test.old', 'test', 'x', ${new Date(old + 1000)})`;
    await sql()`
      insert into alerts (id, kind, endpoint_id, status, payload, created_at) values
        (${newId("alert", old + 1000)}, 'endpoint.failing', ${endpointId}, 'sent', '{}', ${new Date(old + 1000)}),
        (${newId("alert", held + 1000)}, 'endpoint.failing', ${endpointId}, 'pending', '{}', ${new Date(held + 1000)})`;
}

describe("time partitions", () => {
  it("are made a day at a time ahead: a new message and its attempt land in today's partitions, never the default", async () => {
    for (const { table } of PARTITIONED) {
      const days = (await dayPartitions(sql(), table)).map((p) => p.day);
      for (let d = today; d <= today + PARTITIONS_AHEAD * DAY_MS; d += DAY_MS) expect(days, table).toContain(d);
    }
    // Making them again changes nothing.
    expect(await makePartitions({ ctx: systemCtx() })).toEqual([]);
    const { id } = await sendMessage(t.api, "parts", { payload: { n: 1 } });
    await waitFor(async () => (await sql()<{ n: number }[]>`select count(*)::int as n from attempts where message_id = ${id}`)[0]!.n === 1, { what: "the attempt" });
    expect(await partitionOf("messages", id)).toBe(`messages_p${dayTag(today)}`);
    const [attempt] = await sql()<{ id: string; delivery_id: string }[]>`select id, delivery_id from attempts where message_id = ${id}`;
    expect(await partitionOf("attempts", attempt!.id)).toBe(`attempts_p${dayTag(today)}`);
    expect(await partitionOf("deliveries", attempt!.delivery_id)).toBe(`deliveries_p${dayTag(today)}`);
    expect((await t.api.get(`/api/v1/messages/${id}`)).status).toBe(200);
  });

  it("are attached beside a write of a keyed table that then reads the default partition: the attach waits for it, and both go through", async () => {
    // Before, the attach took the default partition and then waited for the queue, which this
    // transaction holds, while this transaction waited for the default partition: the attach gave
    // up at its lock timeout, and every write of deliveries waited that long behind it.
    const day = today + 20 * DAY_MS;
    const writer = await sql().reserve();
    try {
      await writer`begin`;
      await writer`lock table delivery_queue in row exclusive mode`;
      const attaching = attachDay(sql(), "deliveries", day);
      await waitFor(async () => (await waiting()) > 0, { what: "the attach waiting" });
      await writer`select count(*) from deliveries_default`;
      await writer`commit`;
      expect(await attaching).toBe(`deliveries_p${dayTag(day)}`);
    } finally {
      writer.release();
      // (Not attached when the attach failed.)
      await sql().unsafe(`alter table deliveries detach partition deliveries_p${dayTag(day)}`).catch(() => {});
      await sql().unsafe(`drop table if exists deliveries_p${dayTag(day)}`);
    }
  });

  it("lock, before an attach, every table it locks for the keys it copies", async () => {
    const day = today + 30 * DAY_MS;
    for (const { table, prefix } of PARTITIONED) {
      const probe = `${table}_lockprobe`;
      await sql().unsafe(`create table ${probe} (like ${table} including defaults including storage including compression)`);
      if (table === "deliveries") await sql().unsafe(`create unique index on ${probe} (message_id, endpoint_id)`);
      let locked: string[] = [];
      await sql()
        .begin(async (tx) => {
          await tx.unsafe(`alter table ${table} attach partition ${probe} for values from ('${idBoundAt(prefix, day)}') to ('${idBoundAt(prefix, day + DAY_MS)}')`);
          const rows = await tx<{ rel: string }[]>`
            select distinct c.relname as rel from pg_locks l join pg_class c on c.oid = l.relation
            where l.pid = pg_backend_pid() and l.mode = 'ShareRowExclusiveLock' and c.relname <> ${probe}`;
          locked = rows.map((r) => r.rel).sort();
          throw new Error("rolled back");
        })
        .catch((error: unknown) => {
          if (String(error) !== "Error: rolled back") throw error;
        });
      await sql().unsafe(`drop table ${probe}`);
      expect(await keyTables(sql(), table), table).toEqual(locked);
    }
  });

  it("are detached beside a claim that holds queue rows and then reads deliveries: the detach waits for it, and both go through", async () => {
    // Before, the detach took deliveries and then waited for the queue, which this transaction
    // holds, while this transaction waited for deliveries: the detach gave up at its lock timeout,
    // and every read and write of deliveries waited that long behind it.
    const day = today + 40 * DAY_MS;
    const name = await attachDay(sql(), "deliveries", day);
    const claim = await sql().reserve();
    try {
      await claim`begin`;
      await claim`lock table delivery_queue in row exclusive mode`;
      const detaching = detachAndDrop(sql(), "deliveries", name, []);
      await waitFor(async () => (await waiting()) > 0, { what: "the detach waiting" });
      await claim`select count(*) from deliveries where id = 'x'`;
      await claim`commit`;
      await detaching;
      expect(await exists(name)).toBe(false);
    } finally {
      claim.release();
      // (Still there when the detach failed.)
      await sql().unsafe(`alter table deliveries detach partition ${name}`).catch(() => {});
      await sql().unsafe(`drop table if exists ${name}`);
    }
  });

  it("lock, before a detach, every table it locks, in the mode it locks it", async () => {
    const day = today + 50 * DAY_MS;
    for (const { table } of PARTITIONED) {
      const name = await attachDay(sql(), table, day);
      const own = new Set([table, `${table}_default`, name]);
      let locked: { name: string; mode: string }[] = [];
      await sql()
        .begin(async (tx) => {
          await tx.unsafe(`alter table ${table} detach partition ${name}`);
          // The strongest lock it holds on each other table.
          const rows = await tx<{ rel: string; mode: string }[]>`
            select c.relname as rel, l.mode from pg_locks l join pg_class c on c.oid = l.relation
            where l.pid = pg_backend_pid() and c.relkind in ('r', 'p') and c.relnamespace = current_schema()::regnamespace`;
          const rank = ["AccessShareLock", "RowShareLock", "RowExclusiveLock", "ShareUpdateExclusiveLock", "ShareLock", "ShareRowExclusiveLock", "ExclusiveLock", "AccessExclusiveLock"];
          const strongest = new Map<string, string>();
          for (const r of rows) if (!own.has(r.rel) && rank.indexOf(r.mode) > rank.indexOf(strongest.get(r.rel) ?? "")) strongest.set(r.rel, r.mode);
          locked = [...strongest].map(([rel, mode]) => ({ name: rel, mode: mode.replace(/Lock$/, "").replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase() }));
          throw new Error("rolled back");
        })
        .catch((error: unknown) => {
          if (String(error) !== "Error: rolled back") throw error;
        });
      await sql().unsafe(`alter table ${table} detach partition ${name}; drop table ${name}`);
      const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
      expect([...(await detachLocks(sql(), table))].sort(byName), table).toEqual(locked.sort(byName));
    }
  });

  it("count as their table on the Data & retention page: the sum of its days, none listed on its own", async () => {
    const res = await t.api.get("/api/v1/data-lifecycle");
    expect(res.status, res.text).toBe(200);
    const tables = res.body.database.tables as { name: string; bytes: number }[];
    expect(tables.filter((x) => /_([pmh][0-9]{8}|default)$/.test(x.name))).toEqual([]);
    const [parts] = await sql()<{ bytes: number }[]>`
      select sum(pg_total_relation_size(relid))::float8 as bytes from pg_partition_tree('messages') where isleaf`;
    expect(tables.find((x) => x.name === "messages")?.bytes).toBe(parts!.bytes);
  });

  it("drops a day past RETENTION_PERIOD whole, with its deliveries, failed rows and attempts (later days' too); keeps a day with a pending delivery", async () => {
    const gone = today - 4 * DAY_MS;
    const kept = today - 3 * DAY_MS;
    const done = await oldMessage(gone + 3_600_000, { attemptsAt: [gone + 3_601_000, kept + 60_000] });
    const failed = await oldMessage(gone + 7_200_000, { status: "failed" });
    const pending = await oldMessage(kept + 3_600_000, { status: "pending" });
    expect(await partitionOf("messages", done.id)).toBe(`messages_p${dayTag(gone)}`);
    expect(await partitionOf("attempts", done.attemptIds[1]!)).toBe(`attempts_p${dayTag(kept)}`);
    expect(await partitionOf("deliveries", done.deliveryId)).toBe(`deliveries_p${dayTag(gone)}`);

    const { removed } = await dropExpiredPartitions({ ctx: systemCtx(), deadline: Date.now() + 30_000 });
    expect(removed).toMatchObject({ messages: 2, deliveries: 2, failed_deliveries: 1, audit_events: 1, alerts: 1 });
    expect(removed.attempts).toBeGreaterThanOrEqual(3);
    expect(await exists(`messages_p${dayTag(gone)}`)).toBe(false);
    expect(await exists(`messages_p${dayTag(gone - DAY_MS)}`)).toBe(false);
    expect(await exists(`deliveries_p${dayTag(gone)}`)).toBe(false);
    // Attempts of the gone day: no older message is left, so the day goes; the next one holds
    // attempts of the pending message's day and stays.
    expect(await exists(`attempts_p${dayTag(gone)}`)).toBe(false);
    expect(await exists(`attempts_p${dayTag(kept)}`)).toBe(true);
    const [left] = await sql()<{ messages: number; deliveries: number; attempts: number; failed: number }[]>`
      select (select count(*) from messages where id = any(${[done.id, failed.id]}))::int as messages,
             (select count(*) from deliveries where message_id = any(${[done.id, failed.id]}))::int as deliveries,
             (select count(*) from attempts where message_id = any(${[done.id, failed.id]}))::int as attempts,
             (select count(*) from failed_deliveries where message_id = any(${[done.id, failed.id]}))::int as failed`;
    expect(left).toEqual({ messages: 0, deliveries: 0, attempts: 0, failed: 0 });
    expect((await t.api.get(`/api/v1/messages/${done.id}`)).status).toBe(404);

    expect(await exists(`messages_p${dayTag(kept)}`)).toBe(true);
    expect(await exists(`deliveries_p${dayTag(kept)}`)).toBe(true);
    expect((await t.api.get(`/api/v1/messages/${pending.id}`)).status).toBe(200);
    // Once the pending delivery ends, its day goes too.
    await sql()`delete from delivery_queue where delivery_id = ${pending.deliveryId}`;
    await sql()`update deliveries set status = 'canceled' where id = ${pending.deliveryId}`;
    await dropExpiredPartitions({ ctx: systemCtx(), deadline: Date.now() + 30_000 });
    expect(await exists(`messages_p${dayTag(kept)}`)).toBe(false);
    expect(await exists(`deliveries_p${dayTag(kept)}`)).toBe(false);
    expect(await exists(`attempts_p${dayTag(kept)}`)).toBe(false);
    expect((await sql()<{ n: number }[]>`select count(*)::int as n from deliveries where message_id = ${pending.id}`)[0]!.n).toBe(0);
    // Yesterday is within RETENTION_PERIOD (1 d) of its end: it stays, like today.
    expect(await exists(`messages_p${dayTag(today - DAY_MS)}`)).toBe(true);
  });

  it("put a delivery made days after its message (a resend, a recovery) in the message's day, one per message and endpoint", async () => {
    const at = today - DAY_MS + 3_600_000;
    const message = await oldMessage(at);
    const later = (await createEndpoint(t.api, "parts", t.ok.url)).id;
    const other = (await createEndpoint(t.api, "parts", t.ok.url)).id;
    const deliveriesTo = (endpoint: string) =>
      sql()<{ id: string; p: string }[]>`
        select id, tableoid::regclass::text as p from deliveries where message_id = ${message.id} and endpoint_id = ${endpoint}`;

    // Two resends at once to an endpoint the message never had: one delivery, in the message's day.
    const resends = await Promise.all([0, 1].map(() => t.api.post(`/api/v1/messages/${message.id}/resend`, { endpoint_id: later })));
    for (const r of resends) expect(r.status, r.text).toBe(202);
    const made = await deliveriesTo(later);
    expect(made).toEqual([{ id: expect.any(String), p: `deliveries_p${dayTag(today - DAY_MS)}` }]);
    expect(resends.map((r) => r.body.delivery_id)).toEqual([made[0]!.id, made[0]!.id]);

    // A recovery that takes the message for another endpoint it never had, then a resend to it.
    const run = await t.api.post(`/api/v1/endpoints/${other}/recover`, {
      since: new Date(at - 1000).toISOString(),
      until: new Date(at + 1000).toISOString(),
      include_never_attempted: true,
      rate_per_second: 1000,
    });
    expect(run.status, run.text).toBe(202);
    await waitFor(async () => (await t.api.get(`/api/v1/recoveries/${run.body.id}`)).body.state === "completed", { what: "the recovery run" });
    const recovered = await deliveriesTo(other);
    expect(recovered).toEqual([{ id: expect.any(String), p: `deliveries_p${dayTag(today - DAY_MS)}` }]);
    const resent = await t.api.post(`/api/v1/messages/${message.id}/resend`, { endpoint_id: other });
    expect(resent.body.delivery_id).toBe(recovered[0]!.id);
    expect(await deliveriesTo(other)).toHaveLength(1);

    // The day's unique index refuses a second delivery outright; `on conflict do nothing` skips it.
    const insert = (conflict: boolean) =>
      sql().unsafe(
        `insert into deliveries (id, message_id, endpoint_id, consumer_id, status) values ($1, $2, $3, $4, 'canceled') ${conflict ? "on conflict do nothing" : ""}`,
        [deliveryIdFor(message.id), message.id, other, consumerId],
      );
    await expect(insert(false)).rejects.toMatchObject({ code: "23505" });
    expect((await insert(true)).count).toBe(0);
  });

  it("drops audit and alert days past AUDIT_RETENTION; a day with an alert still being sent stays", async () => {
    // The previous test's sweep dropped them already (they were written in the file's set-up).
    await dropExpiredPartitions({ ctx: systemCtx(), deadline: Date.now() + 30_000 });
    const [rows] = await sql()<{ audit: number; alerts: string[] }[]>`
      select (select count(*) from audit_events where action = 'test.old')::int as audit,
             (select coalesce(array_agg(status order by status), '{}') from alerts where kind = 'endpoint.failing') as alerts`;
    expect(rows).toEqual({ audit: 0, alerts: ["pending"] });
    expect(await exists(`audit_events_p${dayTag(old)}`)).toBe(false);
    expect(await exists(`alerts_p${dayTag(old)}`)).toBe(false);
    expect(await exists(`alerts_p${dayTag(held)}`)).toBe(true);
    // Audit days after it are past too (2 d) and empty: they go; the alert day that holds the
    // pending one stops the alerts there.
    expect(await exists(`audit_events_p${dayTag(held)}`)).toBe(false);
    expect(await exists(`audit_events_p${dayTag(today - DAY_MS)}`)).toBe(true);
  });
});

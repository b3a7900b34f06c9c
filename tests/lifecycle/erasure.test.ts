import { describe, expect, it } from "vitest";
import { getSql } from "../../lib/db/client";
import { recordOutcomes } from "../../lib/deliveries/record-outcomes";
import { newId } from "../../lib/ids";
import { systemCtx } from "../../lib/open-ctx";
import { eraseConsumer } from "../../lib/retention/erase-consumer";
import { compactStats } from "../../lib/stats/compact-stats";
import { withEnv } from "../helpers/env";
import { consumerWithEndpoint, createConsumer, createEndpoint, sendMessage } from "../helpers/fixtures";
import { portalSession } from "../helpers/portal";
import { lifecycleFixture } from "../helpers/lifecycle";
import { captureLogs } from "../helpers/log-capture";
import { startReceiver, waitFor } from "../helpers/receiver";

/**
 * DELETE /consumers/{consumer} erases everything of the consumer: counted afterwards table by
 * table — every table of the schema with a consumer, endpoint, message, delivery or recovery id
 * column, found in information_schema so a new table is counted too — and, for what it wrote, its
 * text searched for in every row of every table and in every line the web and the worker logged.
 * Small consumers within the request (204), large
 * ones in the worker (202 and GET /erasures/{id}); the consumer is gone from every read at once.
 */
process.env.DELIVERY_SCHEDULE = "0,300ms,300ms,300ms,300ms,1h";
process.env.CIRCUIT_FAILURE_THRESHOLD = "1000";
process.env.ALERT_FAILING_AFTER = "500ms";
process.env.RECOVERY_TICK = "50ms";
process.env.RECOVERY_RAMP_EVERY = "1ms";
// An attempt in flight when the erasure begins may write its outcome until this (and a margin) has
// passed: a busy erasure waits that long. Long enough that an attempt the test holds is still in
// flight when its DELETE (seconds on a loaded machine) asks; no longer, for that wait's sake.
process.env.DELIVERY_TIMEOUT = "10s";

// Every line both processes (here in one) log, debug lines too.
const logs = captureLogs("debug");
const t = lifecycleFixture();
let seq = 0;
const sql = () => getSql();

type Made = { id: string; uid: string; marker: string; endpoints: string[]; messages: string[] };

/** Lines of the captured log naming the consumer's text. */
const loggedLines = (made: Made) => logs.text().split("\n").filter((line) => line.includes(made.marker));

/**
 * A consumer with something in every table it can reach: endpoints (custom headers, secrets),
 * messages delivered and failing (attempts, failed rows, idempotency keys), alert emails and the
 * alerts sent to them, a recovery run, portal links and a session, rollup rows and audit events,
 * the Svix API's kept answers to endpoint creates — one of an endpoint deleted since.
 * Every text it is given carries `marker`.
 */
async function richConsumer(messages = 4): Promise<Made> {
  const n = ++seq;
  const marker = `zz-erase-${n}-${Date.now()}`;
  const uid = `erase-target-${n}`;
  const consumer = await createConsumer(t.api, { uid, name: `Erase Me ${marker}`, metadata: { crm: marker }, alert_emails: [`ops+${marker}@example.com`] });
  const good = await createEndpoint(t.api, uid, `${t.ok.url}/${marker}`, { description: marker, headers: { authorization: `Bearer ${marker}` } });
  // Ordered: its failing messages wait in a line, held queue rows the erasure takes too.
  const bad = await createEndpoint(t.api, uid, `${t.down.url}/${marker}`, { ordering: "ordered" });
  // Made through the Svix API, as its SDKs do (with an Idempotency-Key: the answer, URL,
  // description and metadata, is kept to be replayed), then deleted before the erasure.
  const gone = await t.api.post(`/api/v1/app/${uid}/endpoint`, { url: `${t.ok.url}/${marker}-gone`, description: `gone ${marker}`, metadata: { crm: marker } }, { "idempotency-key": `${marker}-gone` });
  expect(gone.status, gone.text).toBe(201);
  expect((await t.api.del(`/api/v1/endpoints/${gone.body.id}`)).status).toBe(204);
  // Its audit events never held its URL (nor any other: they keep ids).
  const goneAudit = await sql()<{ data: unknown }[]>`select data from audit_events where target_id = ${gone.body.id}`;
  expect(goneAudit.length).toBe(2);
  expect(JSON.stringify(goneAudit)).not.toContain(marker);
  const ids: string[] = [];
  for (let i = 0; i < messages - 1; i++) {
    ids.push((await sendMessage(t.api, uid, { event_id: `${marker}-evt-${i}`, payload: { secret: marker, i } }, { "idempotency-key": `${marker}-key-${i}` })).id);
  }
  // The last through the Svix API, as its SDKs send it (with an Idempotency-Key): its kept answer
  // holds the payload and names no consumer.
  const svix = await t.api.post(`/api/v1/app/${uid}/msg`, { eventType: "invoice.paid", payload: { secret: marker, via: "svix" } }, { "idempotency-key": `${marker}-svix` });
  expect(svix.status, svix.text).toBe(202);
  ids.push(svix.body.id);
  // The bad endpoint's line holds all but its first message (messages ≥ 2 here).
  const [held] = await sql()<{ n: number }[]>`select count(*)::int as n from delivery_queue where endpoint_id = ${bad.id} and next_attempt_at = 'infinity'`;
  expect(held!.n).toBeGreaterThan(0);
  await portalSession(t.api, uid, { theme: { name: marker } });
  await t.api.post(`/api/v1/consumers/${uid}/portal-links`, {});
  // Deliveries to the good endpoint succeed; the bad one's fail, long enough for endpoint.failing
  // to be mailed to the alert email (kept in the alert log).
  await waitFor(async () => (await sql()`select 1 from alerts where recipient = ${`ops+${marker}@example.com`} and status <> 'pending'`).length > 0, {
    what: "endpoint.failing to the consumer's alert email",
    timeout: 30_000,
  });
  // An endpoint added since: a recovery brings it the messages it never got.
  const madeLate = await t.api.post(`/api/v1/app/${uid}/endpoint`, { url: `${t.ok.url}/${marker}-late`, description: marker }, { "idempotency-key": `${marker}-late` });
  expect(madeLate.status, madeLate.text).toBe(201);
  const late: { id: string } = madeLate.body;
  const recovery = await t.api.post(`/api/v1/endpoints/${late.id}/recover`, { since: "2020-01-01T00:00:00Z", include_never_attempted: true });
  expect(recovery.status, recovery.text).toBe(202);
  expect(recovery.body.counts.expected).toBe(messages);
  await compactStats({ ctx: { sql: getSql() } });
  const [stats] = await sql()<{ n: number }[]>`select count(*)::int as n from attempt_stats where scope = ${consumer.id}`;
  expect(stats!.n).toBeGreaterThan(0);
  return { id: consumer.id, uid, marker, endpoints: [good.id, bad.id, late.id, gone.body.id], messages: ids };
}

const ID_COLUMNS = ["consumer_id", "endpoint_id", "message_id", "delivery_id", "recovery_id"] as const;

/**
 * Rows left anywhere for the consumer: each table with one of ID_COLUMNS (from information_schema,
 * so a table added later is counted too) by the consumer's ids, the rollup by its scopes, and every
 * table of the database searched for the marker in any column. The erasure's own record (its id
 * and the consumer's) is the one row meant to stay.
 */
async function leftovers(made: Made, ids: { deliveries: string[]; recoveries: string[] }) {
  const values: Record<(typeof ID_COLUMNS)[number], string[]> = {
    consumer_id: [made.id],
    endpoint_id: made.endpoints,
    message_id: made.messages,
    delivery_id: ids.deliveries,
    recovery_id: ids.recoveries,
  };
  const columns = await sql()<{ table_name: string; column_name: (typeof ID_COLUMNS)[number] }[]>`
    select c.table_name, c.column_name from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name and t.table_type = 'BASE TABLE'
    where c.table_schema = 'public' and c.column_name = any(${[...ID_COLUMNS]}) and c.table_name <> 'erasures'
    order by 1, 2`;
  expect(columns.length).toBeGreaterThan(12);
  const found: Record<string, number> = {};
  const count = async (label: string, query: Promise<{ n: number }[]>) => {
    const n = (await query)[0]!.n;
    if (n > 0) found[label] = n;
  };
  for (const { table_name, column_name } of columns) {
    await count(`${table_name}.${column_name}`, sql()<{ n: number }[]>`select count(*)::int as n from ${sql()(table_name)} where ${sql()(column_name)} = any(${values[column_name]})`);
  }
  await count("consumers", sql()`select count(*)::int as n from consumers where id = ${made.id}`);
  await count("endpoints", sql()`select count(*)::int as n from endpoints where id = any(${made.endpoints})`);
  await count("messages", sql()`select count(*)::int as n from messages where id = any(${made.messages})`);
  await count("attempt_stats", sql()`select count(*)::int as n from attempt_stats where scope = any(${[made.id, ...made.endpoints]})`);
  await count("recoveries", sql()`select count(*)::int as n from recoveries where id = any(${ids.recoveries})`);
  const tables = await sql()<{ schemaname: string; tablename: string }[]>`
    select schemaname, tablename from pg_tables where schemaname in ('public', 'graphile_worker') order by 1, 2`;
  for (const { schemaname, tablename } of tables) {
    await count(`${schemaname}.${tablename} mentioning the marker`, sql()`
      select count(*)::int as n from ${sql()(schemaname)}.${sql()(tablename)} x where x::text like ${`%${made.marker}%`}`);
  }
  return found;
}

/** What a worker that sent one of the consumer's messages writes when it is done: its response echoed the marker. */
function lateOutcome(made: Made, deliveryId: string) {
  return {
    attemptId: newId("attempt"),
    deliveryId,
    messageId: made.messages[0]!,
    endpointId: made.endpoints[0]!,
    consumerId: made.id,
    attemptNumber: 2,
    trigger: "scheduled" as const,
    success: true,
    statusCode: 200,
    error: null,
    errorDetail: null,
    responseBody: `got ${made.marker}`,
    durationMs: 12,
    requestHeaders: {},
    url: `${t.ok.url}/${made.marker}`,
    finishedAt: new Date(),
    leaseToken: "gone",
    next: { status: "succeeded" as const, attemptAt: null },
  };
}

async function idsOf(made: Made) {
  const deliveries = (await sql()<{ id: string }[]>`select id from deliveries where message_id = any(${made.messages})`).map((d) => d.id);
  const recoveries = (await sql()<{ id: string }[]>`select id from recoveries where consumer_id = ${made.id}`).map((r) => r.id);
  expect(deliveries.length).toBeGreaterThan(0);
  expect(recoveries.length).toBe(1);
  return { deliveries, recoveries };
}

describe("DELETE /consumers/{consumer}", () => {
  it("erases a small consumer within the request (204): no row of it is left in any table", async () => {
    const made = await richConsumer();
    const ids = await idsOf(made);
    // Something of it in the tables the count is about.
    expect(Object.keys(await leftovers(made, ids)).length).toBeGreaterThan(10);
    // No attempt in flight (the worker finishes its own before it stops): erased at once.
    await t.stopWorker();
    try {
      const res = await t.api.del(`/api/v1/consumers/${made.uid}`);
      expect(res.status, res.text).toBe(204);
      expect(await leftovers(made, ids)).toEqual({});
      // The fact stays: its creation and deletion with its id and uid only; no personal data in any
      // audit row (the marker search above), an endpoint's URL emptied from its creation's event.
      const audit = await sql()<{ action: string; data: Record<string, unknown> }[]>`
        select action, data from audit_events where target_id = ${made.id} and action like 'consumer.%' order by created_at`;
      expect(audit).toEqual([
        { action: "consumer.created", data: { uid: made.uid } },
        { action: "consumer.deleted", data: { uid: made.uid } },
      ]);
      const endpointCreated = await sql()<{ data: Record<string, unknown> }[]>`
        select data from audit_events where target_id = ${made.endpoints[0]!} and action = 'endpoint.created'`;
      expect(endpointCreated).toEqual([{ data: {} }]);
      const erasure = (await sql()<{ state: string; counts: Record<string, number> }[]>`select state, counts from erasures where consumer_id = ${made.id}`)[0]!;
      expect(erasure.state).toBe("completed");
      expect(erasure.counts).toMatchObject({ messages: 4, endpoints: 3, consumers: 1, alerts: expect.any(Number), attempt_stats: expect.any(Number), recovery_items: expect.any(Number) });
      // An outcome written after all (its worker held up past the erasure's wait) brings nothing back:
      // no attempt, no rollup minute.
      await recordOutcomes(getSql(), { outcomes: [lateOutcome(made, ids.deliveries[0]!)], health: { failureThreshold: 1000, openForMs: 1000, defaultConcurrency: 10 } });
      expect(await leftovers(made, ids)).toEqual({});
      expect((await sql()`select 1 from attempt_stats_pending where consumer_id = ${made.id}`).length).toBe(0);
      // Nor did either process write what it held to its log (where the alert emails were noted).
      expect(logs.text()).toContain("email alert not mailed");
      expect(loggedLines(made)).toEqual([]);
    } finally {
      await t.startWorker();
    }
    // The uid is free again.
    expect((await t.api.post("/api/v1/consumers", { uid: made.uid, name: "Someone new" })).status).toBe(201);
  });

  it("erases a large consumer in the background (202 with the erasure); it is gone from every read at once", async () => {
    const made = await richConsumer(5);
    const ids = await idsOf(made);
    // The job is held back until the reads are checked: the worker is stopped.
    await t.stopWorker();
    // Lists across consumers: its attempts, endpoints, alerts and recovery run are on them now.
    const crossLists = ["/attempts?limit=250", "/endpoints?limit=250", "/alerts?limit=250", "/recoveries?limit=250"];
    const names = (text: string) => [made.id, ...made.endpoints].filter((id) => text.includes(id));
    for (const path of crossLists) expect(names((await t.api.get(`/api/v1${path}`)).text), path).not.toEqual([]);
    let erasureId = "";
    try {
      await withEnv({ ERASURE_INLINE_MESSAGES: "3" }, async () => {
        const res = await t.api.del(`/api/v1/consumers/${made.id}`);
        expect(res.status, res.text).toBe(202);
        erasureId = res.body.id;
        expect(res.headers.get("location")).toBe(`/api/v1/erasures/${erasureId}`);
        expect(res.body).toMatchObject({ consumer_id: made.id, state: "running", progress: { messages_total: 0, messages_erased: 0 }, finished_at: null });
        // Again, by its id: the same erasure. By its uid: nothing (the uid is gone with it).
        const again = await t.api.del(`/api/v1/consumers/${made.id}`);
        expect(again.status).toBe(202);
        expect(again.body.id).toBe(erasureId);
        const byUid = await t.api.del(`/api/v1/consumers/${made.uid}`);
        expect(byUid.status).toBe(404);
        expect(byUid.headers.get("content-type")).toBe("application/problem+json");
      });
      // Gone from every read, though its rows are still there.
      expect((await sql()<{ n: number }[]>`select count(*)::int as n from messages where consumer_id = ${made.id}`)[0]!.n).toBe(5);
      for (const path of [`/consumers/${made.id}`, `/consumers/${made.uid}`, `/consumers/${made.id}/endpoints`, `/messages/${made.messages[0]}`, `/messages?consumer=${made.uid}`]) {
        const res = await t.api.get(`/api/v1${path}`);
        expect(res.status, path).toBe(404);
        expect(res.headers.get("content-type"), path).toBe("application/problem+json");
      }
      expect((await t.api.get(`/api/v1/consumers?q=${made.uid}`)).body.data).toEqual([]);
      expect((await t.api.get("/api/v1/consumers?limit=250")).text).not.toContain(made.id);
      expect((await t.api.get("/api/v1/messages?limit=250")).text).not.toContain(made.id);
      // And from the lists across consumers, at once: not listed unnamed (`consumer: null`) until
      // the erasure's batches reach them.
      for (const path of crossLists) {
        const res = await t.api.get(`/api/v1${path}`);
        expect(res.status, path).toBe(200);
        expect(names(res.text), path).toEqual([]);
      }
      const ingest = await t.api.post("/api/v1/messages", { consumer: made.id, event_type: "invoice.paid", payload: {} });
      expect(ingest.status).toBe(404);
      expect((await t.api.post(`/api/v1/consumers/${made.id}/endpoints`, { url: t.ok.url })).status).toBe(404);
      // What it had that names a person is blanked at once.
      const [row] = await sql()<{ text: string }[]>`select c::text as text from consumers c where id = ${made.id}`;
      expect(row!.text).not.toContain(made.marker);
      expect((await sql()`select 1 from endpoint_secrets where endpoint_id = any(${made.endpoints})`).length).toBe(0);
      expect((await sql()`select 1 from portal_sessions where consumer_id = ${made.id}`).length).toBe(0);
    } finally {
      await t.startWorker();
    }
    const done = await waitFor(async () => {
      const res = await t.api.get(`/api/v1/erasures/${erasureId}`);
      return res.body.state === "completed" ? res.body : null;
    }, { what: "the erasure completed", timeout: 30_000 });
    expect(done).toMatchObject({ consumer_id: made.id, progress: { messages_total: 5, messages_erased: 5 }, finished_at: expect.any(String) });
    expect(done.counts).toMatchObject({ messages: 5, endpoints: 3, consumers: 1 });
    expect(await leftovers(made, ids)).toEqual({});
    expect(loggedLines(made)).toEqual([]);
    // Deleted and erased: nothing answers to it any more.
    expect((await t.api.del(`/api/v1/consumers/${made.id}`)).status).toBe(404);
  });

  it("erases in bounded batches, stopping at its deadline and going on where it stopped", async () => {
    const made = await richConsumer(3);
    await t.stopWorker();
    try {
      let erasureId = "";
      await withEnv({ ERASURE_INLINE_MESSAGES: "0" }, async () => {
        const res = await t.api.del(`/api/v1/consumers/${made.id}`);
        expect(res.status).toBe(202);
        erasureId = res.body.id;
      });
      // One message per batch, the deadline already passed: one batch, then it stops.
      const first = await eraseConsumer(systemCtx(), { erasureId, deadline: Date.now() - 1, batchScale: 0.001 });
      expect(first).toEqual({ state: "running", wakeAt: null });
      expect((await t.api.get(`/api/v1/erasures/${erasureId}`)).body.progress).toEqual({ messages_total: 3, messages_erased: 1 });
      const rest = await eraseConsumer(systemCtx(), { erasureId, batchScale: 0.001 });
      expect(rest).toEqual({ state: "completed" });
      expect((await t.api.get(`/api/v1/erasures/${erasureId}`)).body).toMatchObject({ state: "completed", progress: { messages_erased: 3 } });
    } finally {
      await t.startWorker();
    }
  });

  it("waits for an attempt in flight as it began: its late outcome is erased too", async () => {
    // The receiver answers once the DELETE has: the attempt is in flight when the erasure begins,
    // whatever the DELETE's pace, and its outcome is written after.
    let deleted!: () => void;
    const afterDelete = new Promise<void>((resolve) => (deleted = resolve));
    const slow = await startReceiver(async (_req, res) => {
      await afterDelete;
      res.writeHead(200).end("late");
    });
    try {
      const { uid, consumerId: consumer, endpointId: endpoint } = await consumerWithEndpoint(t.api, slow.url, { prefix: "erase-slow" });
      const { id: message } = await sendMessage(t.api, uid, { payload: {} });
      await waitFor(() => slow.received.length === 1, { what: "the attempt on its way" });
      const res = await t.api.del(`/api/v1/consumers/${uid}`);
      deleted();
      // Small, but not done at once: the attempt's outcome is yet to be written.
      expect(res.status, res.text).toBe(202);
      const done = await waitFor(async () => ((await t.api.get(`/api/v1/erasures/${res.body.id}`)).body.state === "completed" ? true : null), {
        what: "the erasure completed",
        timeout: 40_000,
      });
      expect(done).toBe(true);
      const [left] = await sql()<{ n: number }[]>`
        select (select count(*) from attempts where consumer_id = ${consumer} or endpoint_id = ${endpoint} or message_id = ${message})
             + (select count(*) from attempt_stats where scope = any(${[consumer, endpoint]}))
             + (select count(*) from attempt_stats_pending where consumer_id = ${consumer}) as n`;
      expect(Number(left!.n)).toBe(0);
    } finally {
      deleted();
      await slow.close();
    }
  });

  it("answers problem+json for an unknown consumer and an unknown erasure", async () => {
    const unknown = await t.api.del("/api/v1/consumers/no-such-consumer");
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("not_found");
    const erasure = await t.api.get("/api/v1/erasures/era_unknown");
    expect(erasure.status).toBe(404);
    expect(erasure.headers.get("content-type")).toBe("application/problem+json");
  });
});

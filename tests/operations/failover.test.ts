import postgres from "postgres";
import { afterEach, describe, expect, it } from "vitest";
import { createApiKey } from "../../lib/api-keys";
import { closeDb } from "../../lib/db/client";
import { migrateDatabase } from "../../lib/db/migrate";
import { systemCtx } from "../../lib/open-ctx";
import { multiHostUrl, startPrimary, startStandby } from "../helpers/pg-cluster";
import { startRouteServer } from "../helpers/previous-release";
import { startReceiver, waitFor } from "../helpers/receiver";
import { spawnWorker } from "../helpers/worker-process";

/**
 * docs/operating.md's failover, performed: a primary and a hot standby streaming from it, the product
 * (a web process and a worker) given both in one DATABASE_URL with target_session_attrs=read-write,
 * steady ingest and delivery, then the primary stopped the way a crash stops it and the standby
 * promoted. With the standby synchronous, every message answered 202 is delivered; while there is no
 * primary the web answers 503, never 500, and both processes find the new primary by themselves —
 * the worker's LISTEN included (without it, a message posted after the failover would wait for the
 * 10-minute poll). With the standby asynchronous, what a crash can lose is measured and printed.
 */

const env = { DELIVERY_TIMEOUT: "5s", DELIVERY_SCHEDULE: ["0", ...Array<string>(30).fill("1s")].join(",") };

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

type Answer = { status: number; id?: string; at: number };

/** The cluster, the product on it, and a steady stream of messages through its web process. */
async function failover(options: { synchronous: boolean }) {
  const primary = await startPrimary();
  cleanups.push(primary.close);
  const admin = postgres(primary.url(), { max: 1, onnotice: () => {} });
  await admin`create database product`;
  await admin.end();
  const standby = await startStandby(primary, "standby1", { synchronous: options.synchronous });
  cleanups.push(standby.close);
  const url = multiHostUrl([primary, standby], "product");
  // Migrated through the failover URL: graphile-worker's migrations go through node-postgres.
  await migrateDatabase(url);
  await closeDb();
  process.env.DATABASE_URL = url;
  const { key } = await createApiKey({ ctx: systemCtx(), input: { name: "failover" } });
  await closeDb();

  const receiver = await startReceiver();
  cleanups.push(receiver.close);
  const productEnv = { ...env, DATABASE_URL: url, LOG_LEVEL: "info" };
  const [web, worker] = await Promise.all([startRouteServer(process.cwd(), productEnv), spawnWorker(productEnv)]);
  cleanups.push(web.stop, () => worker.kill());

  const call = async (method: string, route: string, body?: unknown) => {
    const res = await fetch(`${web.url}/api/v1${route}`, {
      method,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json().catch(() => null)) as any };
  };
  expect((await call("POST", "/consumers", { uid: "fo", name: "Failover" })).status).toBe(201);
  expect((await call("POST", "/consumers/fo/endpoints", { url: `${receiver.url}/hook` })).status).toBe(201);

  const answers: Answer[] = [];
  let running = true;
  cleanups.push(async () => (running = false));
  // Two lanes of ingest, each posting as soon as its last answer came: steady, as fast as the web takes them.
  const lanes = Array.from({ length: 2 }, async () => {
    for (let n = 0; running; n++) {
      const res = await call("POST", "/messages", { consumer: "fo", event_type: "invoice.paid", payload: { n } }).catch(() => ({ status: 0, body: null }));
      answers.push({ status: res.status, id: res.status === 202 ? res.body.id : undefined, at: Date.now() });
    }
  });
  const delivered = () => new Set(receiver.received.map((r) => String(r.headers["webhook-id"])));
  await waitFor(() => delivered().size >= 30, { timeout: 60_000, what: "steady delivery before the failover" });

  const stoppedAt = Date.now();
  await primary.stopHard();
  // No primary until the standby is promoted: the web answers 503 meanwhile.
  await waitFor(() => answers.some((a) => a.at > stoppedAt && a.status === 503), { timeout: 60_000, what: "a 503 while there is no primary" });
  const promotedAt = Date.now();
  await standby.promote();
  const afterPromote = (a: Answer) => a.at > promotedAt && a.status === 202;
  await waitFor(() => answers.filter(afterPromote).length >= 30, { timeout: 90_000, what: "ingest on the new primary", onTimeout: () => console.log(web.output()) });
  running = false;
  await Promise.all(lanes);

  const db = postgres(standby.url("product"), { max: 1, onnotice: () => {} });
  cleanups.push(() => db.end());
  const accepted = answers.filter((a) => a.status === 202).map((a) => a.id!);
  const [held] = await db<{ ids: string[] }[]>`select coalesce(array_agg(id), '{}') as ids from messages where id = any(${accepted})`;
  const kept = new Set(held!.ids);
  // Every message the new primary holds is delivered.
  await waitFor(() => [...kept].every((id) => delivered().has(id)), { timeout: 120_000, what: "every kept message delivered", onTimeout: () => console.log(worker.output()) });

  const counts = new Map<string, number>();
  for (const r of receiver.received) counts.set(String(r.headers["webhook-id"]), (counts.get(String(r.headers["webhook-id"])) ?? 0) + 1);
  const duplicates = [...counts.values()].filter((n) => n > 1).length;
  const firstDelivery = receiver.received.find((r) => r.at > promotedAt && answers.some((a) => afterPromote(a) && a.id === r.headers["webhook-id"]));
  const statuses = Object.fromEntries([...new Set(answers.map((a) => a.status))].map((s) => [s, answers.filter((a) => a.status === s).length]));
  const figures = {
    accepted: accepted.length,
    lost: accepted.filter((id) => !kept.has(id)).length,
    duplicates,
    statuses,
    promoteAfterMs: promotedAt - stoppedAt,
    firstDeliveryAfterMs: firstDelivery ? firstDelivery.at - stoppedAt : null,
  };
  return { figures, answers, accepted, kept, worker };
}

describe("a PostgreSQL failover under steady ingest and delivery", () => {
  it("with a synchronous standby: every message answered 202 is delivered, 503 and never 500 meanwhile, and both processes find the new primary", async () => {
    const { figures, accepted, kept } = await failover({ synchronous: true });
    console.log(`failover (synchronous standby): ${JSON.stringify(figures)}`);
    expect(accepted.filter((id) => !kept.has(id)), "answered 202 but not on the new primary").toEqual([]);
    expect(Object.keys(figures.statuses).sort(), "only 202 and 503").toEqual(["202", "503"]);
    expect(figures.firstDeliveryAfterMs).not.toBeNull();
  }, 300_000);

  it("with an asynchronous standby: measures what a crash loses", async () => {
    const { figures } = await failover({ synchronous: false });
    // What asynchronous replication may lose is the last commits the standby had not received: the
    // figure is printed (docs/operating.md quotes runs of it); everything the new primary holds was delivered.
    console.log(`failover (asynchronous standby): ${JSON.stringify(figures)}`);
    expect(Object.keys(figures.statuses).sort()).toEqual(["202", "503"]);
  }, 300_000);
});

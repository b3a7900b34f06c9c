import path from "node:path";
import { tmpdir } from "node:os";
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "../../lib/db/embedded";
import { migrateDatabase } from "../../lib/db/migrate";
import { getDb, getSql } from "../../lib/db/client";
import { deliveries } from "../../lib/db/schema";
import { apiClient, type Api } from "../helpers/api";
import { consumerWithEndpoint, sendMessage } from "../helpers/fixtures";
import { startReceiver, waitFor } from "../helpers/receiver";
import { spawnWorker } from "../helpers/worker-process";

// A server of this file's own: one test restarts it.
const dir = path.join(tmpdir(), `webhook-admin-faults-${process.pid}`);
let pg: EmbeddedDatabase;
let port = 0;
let api: Api;

process.env.DELIVERY_SCHEDULE = "0,300ms,300ms,300ms,300ms";
process.env.DELIVERY_TIMEOUT = "2s";

beforeAll(async () => {
  pg = await startEmbeddedPostgres({ dir, settings: { fsync: "off" } });
  port = Number(new URL(pg.url).port);
  process.env.DATABASE_URL = pg.url;
  await migrateDatabase(pg.url);
  api = await apiClient();
});
afterAll(async () => {
  await pg.stop();
  rmSync(dir, { recursive: true, force: true });
});

const setup = (url: string) => consumerWithEndpoint(api, url, { prefix: "f" });

const send = async (uid: string) => (await sendMessage(api, uid, { event_type: "fault.test", payload: { at: Date.now() } })).id;

const statusOf = async (messageId: string) =>
  (await getDb().select().from(deliveries).where(eq(deliveries.messageId, messageId)))[0]?.status;

describe("a worker killed mid-delivery", () => {
  it("loses nothing: another worker attempts the delivery again once the lease runs out", async () => {
    let calls = 0;
    const receiver = await startReceiver((_req, res) => {
      calls += 1;
      if (calls > 1) res.writeHead(200).end();
    });
    const { uid } = await setup(receiver.url);
    const first = await spawnWorker();
    const messageId = await send(uid);
    await waitFor(() => receiver.received.length === 1, { what: "first attempt in flight" });
    const [lease] = await getSql()<{ ends: Date }[]>`
      select q.next_attempt_at as ends from delivery_queue q join deliveries d on d.id = q.delivery_id
      where d.message_id = ${messageId} and q.lease_token is not null`;
    await first.kill("SIGKILL");
    const second = await spawnWorker();
    const secondUp = Date.now();
    try {
      await waitFor(async () => (await statusOf(messageId)) === "succeeded", { timeout: 80_000, what: "redelivery" });
      expect(receiver.received.map((r) => r.headers["webhook-id"])).toEqual([messageId, messageId]);
      // The lease (DELIVERY_TIMEOUT + 15 s) holds the delivery while its worker might still be
      // alive, and its end is what frees it: the second attempt comes once the lease is over and a
      // worker is there, promptly — not at the minute sweep, far inside the 2-minute promise. 30 s:
      // room for a loaded machine's claim and send, still well under the sweep's minute.
      const again = receiver.received[1]!.at;
      expect(again).toBeGreaterThanOrEqual(lease!.ends.getTime() - 100);
      expect(again - Math.max(lease!.ends.getTime(), secondUp)).toBeLessThan(30_000);
    } finally {
      await second.kill();
      await receiver.close();
    }
  }, 120_000);
});

describe("SIGTERM", () => {
  it("stops taking work but finishes the attempt in flight", async () => {
    // The answer waits until the worker has taken the SIGTERM: the attempt is in flight as it
    // stops, however slow the machine.
    let stopping!: () => void;
    const signalled = new Promise<void>((resolve) => (stopping = resolve));
    const receiver = await startReceiver(async (_req, res) => {
      await signalled;
      res.writeHead(200).end();
    });
    const { uid } = await setup(receiver.url);
    // A deadline beyond the wait for the SIGTERM below (at the file's 2 s, a slow machine's
    // signal could come after the attempt was cut off): the attempt ends with the answer.
    const worker = await spawnWorker({ DELIVERY_TIMEOUT: "30s" });
    const messageId = await send(uid);
    await waitFor(() => receiver.received.length === 1, { what: "attempt in flight" });
    const exited = worker.kill("SIGTERM");
    try {
      await waitFor(() => worker.output().includes("worker stopping: finishing in-flight attempts"), { what: "the worker to take the SIGTERM" });
    } finally {
      stopping();
    }
    const code = await exited;
    expect(code).toBe(0);
    expect(await statusOf(messageId), worker.output()).toBe("succeeded");
    expect(worker.output()).toContain("worker stopped");
    await receiver.close();
  }, 60_000);
});

describe("a Postgres restart", () => {
  it("answers 503 while the database is down, then reconnects and delivers everything", async () => {
    let healthy = false;
    const receiver = await startReceiver((_req, res) => res.writeHead(healthy ? 200 : 500).end());
    const { uid } = await setup(receiver.url);
    // A worker process, as in production: it rides out the outage on its own.
    const worker = await spawnWorker();
    try {
      const before = await send(uid);
      await waitFor(() => receiver.received.length >= 1, { what: "first failed attempt" });
      await pg.stop();
      const down = await api.get("/api/v1/consumers");
      expect(down.status).toBe(503);
      expect(down.headers.get("content-type")).toBe("application/problem+json");
      expect(down.body.code).toBe("service_unavailable");
      const downPost = await api.post("/api/v1/messages", { consumer: uid, event_type: "a.b", payload: {} });
      expect(downPost.status).toBe(503);
      healthy = true;
      pg = await startEmbeddedPostgres({ dir, settings: { fsync: "off" }, port });
      const after = await waitFor(async () => {
        const res = await api.post("/api/v1/messages", { consumer: uid, event_type: "fault.test", payload: {} });
        return res.status === 202 ? (res.body.id as string) : null;
      }, { timeout: 20_000, what: "API back" });
      await waitFor(async () => (await statusOf(before)) === "succeeded" && (await statusOf(after)) === "succeeded", {
        onTimeout: () => console.log(worker.output()),
        timeout: 30_000,
        what: "both delivered after the restart",
      });
      expect(worker.output()).not.toContain("uncaught exception");
    } finally {
      await worker.kill();
      await receiver.close();
    }
  }, 90_000);
});

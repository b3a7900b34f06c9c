import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSql, type Sql } from "../../lib/db/client";
import { QUEUE_KINDS } from "../../lib/db/schema/messages";
import { kindsOfWake, WAKE_CHANNEL, notifyDueAfterCommit, wakePayload } from "../../lib/jobs";
import { apiClient } from "../helpers/api";
import { consumerWithEndpoint, sendMessage } from "../helpers/fixtures";
import { startReceiver, waitFor } from "../helpers/receiver";
import { startTestWorker } from "../helpers/worker";
import type { WorkerHandle } from "../../worker/runtime";

/**
 * Ingest announces due work with a NOTIFY after its commit, coalesced per process (lib/jobs,
 * notifyDueAfterCommit; ADR 0035): never one per transaction in a burst, yet always one that
 * started after each commit, so an idle worker misses nothing.
 */
let sql: Sql;
beforeAll(() => {
  sql = createSql(process.env.DATABASE_URL!, { max: 2, name: "wake-after-commit-test" });
});
afterAll(async () => {
  await sql.end();
});

describe("the wake-up after commit", () => {
  it("sends one NOTIFY for a burst of calls made while one is in flight, and one after them", async () => {
    const pool = createSql(process.env.DATABASE_URL!, { max: 2, name: "wake-after-commit-pool" });
    const heard: string[] = [];
    const subscription = await sql.listen(WAKE_CHANNEL, (payload) => heard.push(payload));
    const errors: unknown[] = [];
    try {
      // The first call sends at once; the next nine come while it is in flight and share one more.
      const calls = Array.from({ length: 10 }, () => notifyDueAfterCommit(pool, (error) => errors.push(error)));
      await Promise.all(calls);
      // PostgreSQL delivers notifications in commit order: a marker sent now arrives after both.
      await pool`select pg_notify(${WAKE_CHANNEL}, 'marker')`;
      await waitFor(() => heard.includes("marker"), { what: "the marker notification" });
      // Each names the scheduled kind, all ingest makes due: a worker's recovery lane sleeps on.
      const ingest = wakePayload([QUEUE_KINDS.scheduled]);
      expect(heard).toEqual([ingest, ingest, "marker"]);
      expect(kindsOfWake(ingest)).toEqual([QUEUE_KINDS.scheduled]);
      expect(errors).toEqual([]);
    } finally {
      await subscription.unlisten();
      await pool.end();
    }
  });

  it("has an idle worker deliver every message of a burst of concurrent ingests at once, none left to the sweep", async () => {
    const worker: WorkerHandle = await startTestWorker();
    const receiver = await startReceiver();
    try {
      const api = await apiClient();
      const { uid } = await consumerWithEndpoint(api, `${receiver.url}/hook`, { prefix: "burst" });
      // Concurrent, each answer checked 202 by the fixture.
      await Promise.all(Array.from({ length: 40 }, (_, n) => sendMessage(api, uid, { event_type: "a.b", payload: { n } })));
      // The sweep (SWEEP_INTERVAL, a minute) would come after these 30 s have run out.
      await waitFor(() => receiver.received.length === 40, { timeout: 30_000, what: "all 40 deliveries" });
    } finally {
      await receiver.close();
      await worker.stop();
    }
  });
});

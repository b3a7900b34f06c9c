import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfigForTests } from "../../lib/config";
import { closeDb } from "../../lib/db/client";
import { migrateDatabase } from "../../lib/db/migrate";
import { apiClient, type Api } from "../helpers/api";
import { consumerWithEndpoint } from "../helpers/fixtures";
import { startPrimary, startStandby, waitForReplay, type PgNode } from "../helpers/pg-cluster";
import { waitFor } from "../helpers/receiver";

/**
 * DATABASE_READ_URL against a real streaming replica (docs/scaling.md#read-replicas-for-the-dashboards-queries):
 * the message log, the attempt log and the statistics read from it; everything else — single rows,
 * what a page shows right after its own write, every write — from the primary. Replay on the replica
 * is paused (pg_wal_replay_pause) to make its lag a fact rather than a race: a message posted then
 * reads back by id at once, and is missing from the log until replay resumes.
 */

let primary: PgNode;
let replica: PgNode;
let onReplica: postgres.Sql;
let api: Api;

beforeAll(async () => {
  primary = await startPrimary();
  const admin = postgres(primary.url(), { max: 1, onnotice: () => {} });
  await admin`create database product`;
  await admin.end();
  await migrateDatabase(primary.url("product"));
  replica = await startStandby(primary, "replica1");
  await closeDb();
  process.env.DATABASE_URL = primary.url("product");
  process.env.DATABASE_READ_URL = replica.url("product");
  resetConfigForTests();
  api = await apiClient();
  onReplica = postgres(replica.url("product"), { max: 1, onnotice: () => {} });
}, 180_000);

afterAll(async () => {
  delete process.env.DATABASE_READ_URL;
  resetConfigForTests();
  await closeDb();
  await onReplica?.end();
  await replica?.close();
  await primary?.close();
});

const post = async (consumer: string, n: number) => {
  const res = await api.post("/api/v1/messages", { consumer, event_type: "invoice.paid", payload: { n } });
  expect(res.status, res.text).toBe(202);
  return res.body.id as string;
};
const logIds = async (consumer: string) => {
  const res = await api.get(`/api/v1/messages?consumer=${consumer}`);
  expect(res.status, res.text).toBe(200);
  return (res.body.data as { id: string }[]).map((m) => m.id);
};

describe("DATABASE_READ_URL on a streaming replica", () => {
  it("reads the message log from the replica, with its lag, and what was just written from the primary", async () => {
    const { uid, endpointId } = await consumerWithEndpoint(api, "http://127.0.0.1:9/hook");
    const first = await post(uid, 1);
    await waitForReplay(primary, replica);
    expect(await logIds(uid)).toEqual([first]);

    await onReplica`select pg_wal_replay_pause()`;
    await waitFor(async () => (await onReplica<{ state: string }[]>`select pg_get_wal_replay_pause_state() as state`)[0]?.state === "paused", {
      what: "replay to pause",
    });
    try {
      const second = await post(uid, 2);
      // The page that posted it reads it back: by id, from the primary.
      expect((await api.get(`/api/v1/messages/${second}`)).status).toBe(200);
      // The log is the replica's, a moment behind: the message is not in it yet.
      expect(await logIds(uid)).toEqual([first]);
      // An endpoint changed now reads back changed (a single row, from the primary), and the list of
      // a consumer's endpoints, which a portal shows right after adding one, has it too.
      const patched = await api.patch(`/api/v1/endpoints/${endpointId}`, { description: "changed during the lag" });
      expect(patched.status, patched.text).toBe(200);
      expect((await api.get(`/api/v1/endpoints/${endpointId}`)).body.description).toBe("changed during the lag");
      const added = await api.post(`/api/v1/consumers/${uid}/endpoints`, { url: "http://127.0.0.1:9/other" });
      expect(added.status, added.text).toBe(201);
      expect(((await api.get(`/api/v1/consumers/${uid}/endpoints`)).body.data as { id: string }[]).map((e) => e.id)).toContain(added.body.id);

      await onReplica`select pg_wal_replay_resume()`;
      await waitForReplay(primary, replica);
      expect(await logIds(uid)).toEqual([second, first]);
    } finally {
      await onReplica`select pg_wal_replay_resume()`.catch(() => {});
    }
  });

});

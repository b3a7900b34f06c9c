import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import postgres from "postgres";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../../lib/api-keys";
import { checkEncryptionKey, WrongEncryptionKeyError } from "../../lib/crypto/key-check";
import { closeDb } from "../../lib/db/client";
import { migrateDatabase } from "../../lib/db/migrate";
import { systemCtx } from "../../lib/open-ctx";
import { runNode } from "../helpers/node-process";
import { pgTool, startPrimary, type PgNode } from "../helpers/pg-cluster";
import { startRouteServer } from "../helpers/previous-release";
import { startReceiver, waitFor } from "../helpers/receiver";
import { spawnWorker } from "../helpers/worker-process";

/**
 * The restore drill of docs/operating.md ("Backup and restore"), as an operator runs it: a pg_dump
 * of the product's database taken while messages are being posted and delivered — one endpoint
 * answering at once, one holding its requests so its leases are held at the moment of the dump —
 * restored into an empty database, and the product (a web process and a worker) started on it with
 * the same ENCRYPTION_KEY. What must hold: everything queued in the dump is delivered; the leases
 * of the old worker run out and are taken again; nothing that had succeeded in the dump is sent
 * again; what may be sent again is exactly what was in flight or not yet recorded at the dump's
 * snapshot (at-least-once: counted, and each one named by the dump); the signing secrets still
 * decrypt (every delivery verifies with `standardwebhooks`); and another ENCRYPTION_KEY is refused
 * at start, by the worker and by the web app, naming ENCRYPTION_KEY.
 */

// DELIVERY_TIMEOUT sets the lease (timeout + 15 s): the old worker's leases run out 25 s after its
// claim, so the new worker takes them again within this file's time. A slot of the held endpoint
// is freed by nothing else meanwhile.
const env = { DELIVERY_TIMEOUT: "10s", DELIVERY_SCHEDULE: ["0", ...Array<string>(20).fill("1s")].join(","), SWEEP_INTERVAL: "5s" };
const HELD_SLOTS = 2;

type Arrival = { path: string; id: string; phase: "before" | "after"; status?: number; body: string; headers: IncomingMessage["headers"] };

let cluster: PgNode;
let admin: postgres.Sql;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const arrivals: Arrival[] = [];
const held: { arrival: Arrival; res: ServerResponse }[] = [];
let phase: Arrival["phase"] = "before";
let holding = true;
let key = "";
const stops: (() => Promise<unknown>)[] = [];

function answer(arrival: Arrival, res: ServerResponse) {
  arrival.status = 204;
  res.writeHead(204).end();
}

beforeAll(async () => {
  cluster = await startPrimary();
  admin = postgres(cluster.url(), { max: 1, onnotice: () => {} });
  await admin`create database product`;
  await migrateDatabase(cluster.url("product"));
  // This process's own pool and ctx now reach the product's database (lib/db/client.ts follows DATABASE_URL).
  await closeDb();
  process.env.DATABASE_URL = cluster.url("product");
  ({ key } = await createApiKey({ ctx: systemCtx(), input: { name: "restore drill" } }));
  await closeDb();
  receiver = await startReceiver((req, res, body) => {
    const arrival: Arrival = { path: req.url ?? "/", id: String(req.headers["webhook-id"]), phase, body, headers: req.headers };
    arrivals.push(arrival);
    if (arrival.path === "/held" && holding) held.push({ arrival, res });
    else answer(arrival, res);
  });
}, 180_000);

afterAll(async () => {
  for (const stop of stops.reverse()) await stop().catch(() => {});
  await receiver?.close();
  await admin?.end();
  await cluster?.close();
});

async function call(web: string, method: string, route: string, body?: unknown) {
  const res = await fetch(`${web}/api/v1${route}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as any };
}

async function startProduct(database: string) {
  const productEnv = { ...env, DATABASE_URL: cluster.url(database) };
  const [web, worker] = await Promise.all([startRouteServer(process.cwd(), productEnv), spawnWorker(productEnv)]);
  stops.push(web.stop, () => worker.kill("SIGKILL"));
  return { web, worker };
}

describe("the restore drill", () => {
  it("restores a dump taken under load: queued work resumes, held leases are taken again, nothing that had succeeded is sent twice, secrets decrypt", async () => {
    const old = await startProduct("product");
    expect((await call(old.web.url, "POST", "/consumers", { uid: "drill", name: "Drill" })).status).toBe(201);
    const endpoints: Record<string, string> = {};
    for (const [name, fields] of [["/fast", {}], ["/held", { max_concurrency: HELD_SLOTS }]] as const) {
      const created = await call(old.web.url, "POST", "/consumers/drill/endpoints", { url: `${receiver.url}${name}`, ...fields });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      endpoints[name] = created.body.id;
    }
    const accepted: string[] = [];
    const post = async (n: number) => {
      const res = await call(old.web.url, "POST", "/messages", { consumer: "drill", event_type: "invoice.paid", payload: { n } });
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      accepted.push(res.body.id);
    };
    // A first wave, delivered to /fast; /held takes its two slots and holds them.
    for (let n = 0; n < 20; n++) await post(n);
    await waitFor(() => arrivals.filter((a) => a.path === "/fast").length >= 20 && held.length === HELD_SLOTS, { timeout: 60_000, what: "the first wave at /fast and /held's slots taken" });

    // The dump, while ingest and delivery go on.
    let posting = true;
    const load = (async () => {
      for (let n = 20; posting; n++) await post(n);
    })();
    const dumpFile = path.join(cluster.dataDir, "..", "product.dump");
    await pgTool("pg_dump", ["--format=custom", "--file", dumpFile, cluster.url("product")]);
    posting = false;
    await load;
    // The old installation is gone, as after the loss a restore answers: its worker dies with its
    // leases held (its requests at /held never get an answer), its web process stops.
    await old.worker.kill("SIGKILL");
    await old.web.stop();
    for (const { res } of held.splice(0)) res.destroy();
    holding = false;

    await admin`create database restored`;
    await pgTool("pg_restore", ["--exit-on-error", "--no-owner", "--dbname", cluster.url("restored"), dumpFile]);
    const restored = postgres(cluster.url("restored"), { max: 1, onnotice: () => {} });
    stops.push(() => restored.end());
    // What the dump says: every delivery's state at its snapshot.
    const atDump = await restored<{ endpointId: string; messageId: string; status: string; leased: boolean }[]>`
      select d.endpoint_id as "endpointId", d.message_id as "messageId", d.status,
             exists (select 1 from delivery_queue q where q.delivery_id = d.id and q.lease_token is not null) as leased
      from deliveries d`;
    const pair = (endpointId: string, messageId: string) => `${endpointId}/${messageId}`;
    const succeededAtDump = new Set(atDump.filter((d) => d.status === "succeeded").map((d) => pair(d.endpointId, d.messageId)));
    const leasedAtDump = atDump.filter((d) => d.leased);
    const messagesAtDump = new Set(atDump.map((d) => d.messageId));
    expect(leasedAtDump.filter((d) => d.endpointId === endpoints["/held"]).length, "the held endpoint's leases are in the dump").toBe(HELD_SLOTS);
    expect(atDump.filter((d) => d.status === "pending" && !d.leased).length, "queued work is in the dump").toBeGreaterThan(0);

    phase = "after";
    const fresh = await startProduct("restored");
    const byPath = Object.fromEntries(Object.entries(endpoints).map(([p, id]) => [id, p]));
    await waitFor(
      async () => {
        const [row] = await restored<{ open: number }[]>`select count(*)::int as open from deliveries where status <> 'succeeded'`;
        return row!.open === 0;
      },
      { timeout: 120_000, what: "every delivery of the restored database to succeed", onTimeout: () => console.log(fresh.worker.output()) },
    );

    const after = arrivals.filter((a) => a.phase === "after");
    // Nothing delivered after the restore had succeeded in the dump.
    const resent = after.filter((a) => succeededAtDump.has(pair(endpointIdOf(a, endpoints), a.id)));
    expect(resent.map((a) => `${a.path} ${a.id}`)).toEqual([]);
    // What was sent before and again after: only deliveries the dump holds as not yet succeeded —
    // in flight at its snapshot (leased), or answered after it.
    const before = new Set(arrivals.filter((a) => a.phase === "before").map((a) => `${a.path} ${a.id}`));
    const repeated = after.filter((a) => before.has(`${a.path} ${a.id}`));
    const leasedRepeats = repeated.filter((a) => leasedAtDump.some((d) => d.messageId === a.id && byPath[d.endpointId] === a.path));
    // Nothing after the restore for a message the dump does not hold: accepted after its snapshot, so lost with it.
    expect(after.filter((a) => !messagesAtDump.has(a.id))).toEqual([]);
    const lost = accepted.filter((id) => !messagesAtDump.has(id));
    console.log(
      `restore drill: ${accepted.length} messages accepted, ${messagesAtDump.size} in the dump (${lost.length} accepted after its snapshot, not in it); ` +
        `${succeededAtDump.size} deliveries succeeded at the dump, none sent again; ${leasedAtDump.length} leased at the dump; ` +
        `${after.length} sent after the restore, ${repeated.length} of them sent before too (${leasedRepeats.length} leased at the dump, ${repeated.length - leasedRepeats.length} answered after its snapshot)`,
    );
    // The held endpoint's leases were taken again: its two held messages arrived after the restore.
    for (const d of leasedAtDump.filter((l) => l.endpointId === endpoints["/held"])) {
      expect(after.some((a) => a.path === "/held" && a.id === d.messageId && a.status === 204), `held ${d.messageId} sent after the restore`).toBe(true);
    }

    // The secrets decrypt with the same ENCRYPTION_KEY: every delivery after the restore verifies.
    for (const [name, id] of Object.entries(endpoints)) {
      const secret = await call(fresh.web.url, "GET", `/endpoints/${id}/secret`);
      expect(secret.status).toBe(200);
      const verifier = new Webhook(secret.body.key);
      for (const a of after.filter((x) => x.path === name)) {
        expect(() => verifier.verify(a.body, a.headers as Record<string, string>)).not.toThrow();
      }
    }
  }, 300_000);

  it("refuses another ENCRYPTION_KEY at start, in the worker and in the web app, naming ENCRYPTION_KEY", async () => {
    const wrong = { ...env, DATABASE_URL: cluster.url("product"), ENCRYPTION_KEY: "ab".repeat(32) };
    const worker = await runNode("worker/index.ts", [], { env: wrong });
    expect(worker.code).toBe(1);
    expect(worker.output).toContain("ENCRYPTION_KEY does not match this database");
    // npm run web: refused after the migration check, before anything is built or served.
    const web = await runNode("scripts/start.ts", ["--only", "web"], { env: wrong });
    expect(web.code).toBe(1);
    expect(web.output).toContain("ENCRYPTION_KEY does not match this database");
  }, 180_000);

  it("passes a fresh database, and the key being rotated out in ENCRYPTION_KEYS_PREVIOUS", async () => {
    await admin`create database fresh`;
    await migrateDatabase(cluster.url("fresh"));
    const fresh = postgres(cluster.url("fresh"), { max: 1, onnotice: () => {} });
    const restored = postgres(cluster.url("product"), { max: 1, onnotice: () => {} });
    try {
      const wrongKey = Buffer.from("ab".repeat(32), "hex");
      await expect(checkEncryptionKey(fresh, { ENCRYPTION_KEY: wrongKey, ENCRYPTION_KEYS_PREVIOUS: [] })).resolves.toBeUndefined();
      const rightKey = Buffer.from(process.env.ENCRYPTION_KEY!, "hex");
      await expect(checkEncryptionKey(restored, { ENCRYPTION_KEY: wrongKey, ENCRYPTION_KEYS_PREVIOUS: [] })).rejects.toThrow(WrongEncryptionKeyError);
      await expect(checkEncryptionKey(restored, { ENCRYPTION_KEY: wrongKey, ENCRYPTION_KEYS_PREVIOUS: [rightKey] })).resolves.toBeUndefined();
    } finally {
      await fresh.end();
      await restored.end();
    }
  });
});

function endpointIdOf(arrival: Arrival, endpoints: Record<string, string>): string {
  return endpoints[arrival.path]!;
}


import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { pendingMigrations } from "../../lib/db/migrate";
import { buildIfNeeded } from "../../lib/runtime/build-app";
import { startProductionWeb } from "../helpers/built-app";
import { withDatabase } from "../helpers/global-setup";
import { runNode } from "../helpers/node-process";
import { PREVIOUS_RELEASE, materialiseRelease, startRouteServer } from "../helpers/previous-release";
import { startReceiver, waitFor } from "../helpers/receiver";
import { spawnWorker } from "../helpers/worker-process";

/**
 * Issue 23's zero-downtime upgrade, as docs/operating.md's "Upgrading" tells an operator to do it:
 * a database made and filled by the previous release (PREVIOUS_RELEASE's own code: its migrations,
 * CLI, route handlers and worker) while its web and worker processes serve; `npm run migrate` of
 * this code under them; then this code's worker and production web start, the traffic moves over,
 * and the old ones get SIGTERM. Requests go on the whole time. Every answer is recorded: none may be
 * a 5xx other than 503, and every message accepted before, during and after is delivered exactly
 * once to each endpoint it is for, with a signature the official verifier accepts.
 */

const TABLES = ["consumers", "endpoints", "messages", "deliveries", "attempts"] as const;
// Long enough that a delivery refused until the switch is over never runs out of attempts (the
// circuit parks the backlog between probes, so only probes spend them); 1 s apart, so it goes as
// soon as its receiver takes it.
const LONG_SCHEDULE = ["0", ...Array<string>(240).fill("1s")].join(",");

type Phase = "old" | "migrating" | "migrated" | "new";
type Answer = { phase: Phase; target: string; request: string; status: number; error?: string };

const serverUrl = inject("serverUrl");
const template = inject("templateDatabase");
const database = `wa_test_${randomBytes(5).toString("hex")}_${template.split("_").pop()}`;
const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
const url = withDatabase(serverUrl, database);
const db = postgres(url, { max: 2, onnotice: () => {} });

// The new web is the production build (shared with the other suites): made first, if a source
// changed, so that the switch below takes as long as a deploy does, not a build.
beforeAll(() => buildIfNeeded({ quiet: true }), 600_000);

afterAll(async () => {
  await db.end();
  await admin.unsafe(`drop database if exists ${database} with (force)`);
  await admin.end();
});

/** The warnings and errors in processes' JSON log lines, by message, with how often each came. */
function complaints(outputs: string[]): Record<string, number> {
  const seen: Record<string, number> = {};
  for (const line of outputs.join("\n").split("\n")) {
    const entry = /^\{.*"level":"(warn|error|fatal)".*"msg":"([^"]*)"/.exec(line);
    if (entry) seen[`${entry[1]}: ${entry[2]}`] = (seen[`${entry[1]}: ${entry[2]}`] ?? 0) + 1;
  }
  return seen;
}

async function rowCounts(): Promise<Record<(typeof TABLES)[number], number>> {
  const counts = {} as Record<(typeof TABLES)[number], number>;
  for (const table of TABLES) counts[table] = (await db.unsafe<{ n: number }[]>(`select count(*)::int as n from ${table}`))[0]!.n;
  return counts;
}

describe(`upgrading from ${PREVIOUS_RELEASE.version} while its processes run`, () => {
  it("answers no 5xx but 503, and delivers every accepted message exactly once", async () => {
    // A database of the previous release's schema, on this file's server (the file's own database
    // is cloned from this code's schema).
    await admin.unsafe(`create database ${database}`);
    const env = {
      DATABASE_URL: url,
      DELIVERY_SCHEDULE: LONG_SCHEDULE,
      CIRCUIT_OPEN_FOR: "1s",
      WORKER_METRICS_PORT: "0",
      LOG_LEVEL: "warn",
    };
    const release = materialiseRelease();
    const stops: (() => Promise<unknown>)[] = [];
    const receiver = await startReceiver();
    let stream: { stop: () => Promise<void> } | undefined;
    try {
      const migrated = await runNode("scripts/migrate.ts", [], { cwd: release.dir, env });
      expect(migrated.code, migrated.output).toBe(0);
      const cli = await runNode("scripts/cli.ts", ["api-key", "create", "--name", "upgrade"], { cwd: release.dir, env });
      expect(cli.code, cli.output).toBe(0);
      const key = /sk_\S+/.exec(cli.output.trim().split("\n").at(-1) ?? "")?.[0];
      expect(key, cli.output).toBeDefined();

      const oldWeb = await startRouteServer(release.dir, env);
      stops.push(oldWeb.stop);
      let target = { name: "old web", url: oldWeb.url };
      const api = async (method: string, route: string, body?: unknown, headers: Record<string, string> = {}) => {
        const res = await fetch(`${target.url}/api/v1${route}`, {
          method,
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...headers },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return { status: res.status, body: (await res.json().catch(() => null)) as any };
      };

      // The receivers: ok-* answer 204, held-a 503 until the switch is over, dead-b always 500.
      // Each checks the signature with its endpoint's secret, as a customer's should.
      const secrets = new Map<string, string>();
      let heldOpen = false;
      const taken: { path: string; id: string; status: number; verified: boolean }[] = [];
      receiver.setHandler((req, res, body) => {
        const path = req.url ?? "";
        const secret = secrets.get(path);
        let verified = false;
        try {
          new Webhook(secret ?? "whsec_AAAA").verify(body, req.headers as Record<string, string>);
          verified = secret !== undefined;
        } catch {
          verified = false;
        }
        const status = !verified ? 401 : path === "/dead-b" ? 500 : path === "/held-a" && !heldOpen ? 503 : 204;
        taken.push({ path, id: String(req.headers["webhook-id"]), status, verified });
        res.writeHead(status).end();
      });

      expect((await api("POST", "/consumers", { uid: "acme", name: "Acme" })).status).toBe(201);
      expect((await api("POST", "/consumers", { uid: "globex", name: "Globex" })).status).toBe(201);
      const endpoints: Record<string, { id: string; consumer: string; types: string[] | null }> = {};
      for (const [path, consumer, types] of [
        ["/ok-a", "acme", null],
        ["/held-a", "acme", null],
        ["/ok-b", "globex", ["invoice.paid"]],
        ["/dead-b", "globex", ["audit.dead"]],
      ] as const) {
        const created = await api("POST", `/consumers/${consumer}/endpoints`, { url: `${receiver.url}${path}`, event_types: types });
        expect(created.status, JSON.stringify(created.body)).toBe(201);
        endpoints[path] = { id: created.body.id, consumer, types: types ? [...types] : null };
        secrets.set(path, (await api("GET", `/endpoints/${created.body.id}/secret`)).body.key);
      }
      const endpointsFor = (consumer: string, eventType: string) =>
        Object.entries(endpoints)
          .filter(([, e]) => e.consumer === consumer && (e.types === null || e.types.includes(eventType)))
          .map(([path]) => path);

      // Accepted messages: id → the receivers that must take it once.
      const accepted = new Map<string, string[]>();
      const ingest = async (consumer: string, eventType: string, seq: number) => {
        const res = await api("POST", "/messages", { consumer, event_type: eventType, payload: { seq } }, { "idempotency-key": `upgrade-${seq}` });
        if (res.status === 202) accepted.set(res.body.id, endpointsFor(consumer, eventType).filter((path) => path !== "/dead-b"));
        return res;
      };

      // A failed delivery from the old release: its worker with a two-attempt schedule, once.
      const shortLived = await spawnWorker({ ...env, LOG_LEVEL: "info", DELIVERY_SCHEDULE: "0,1s" }, { tree: release.dir });
      stops.push(() => shortLived.kill());
      const failed = await ingest("globex", "audit.dead", 0);
      expect(failed.status).toBe(202);
      for (let seq = 1; seq <= 3; seq++) expect((await ingest("globex", "invoice.paid", seq)).status).toBe(202);
      await waitFor(async () => (await db`select status from deliveries where message_id = ${failed.body.id}`)[0]?.status === "failed", {
        timeout: 30_000,
        what: "the old worker to fail the dead endpoint's delivery",
        interval: 200,
      });
      expect(await shortLived.kill()).toBe(0);

      // The old release's web and workers, serving: a retry schedule that outlasts the switch.
      const oldWorker = await spawnWorker({ ...env, LOG_LEVEL: "info" }, { tree: release.dir });
      stops.push(() => oldWorker.kill());
      for (let seq = 4; seq <= 8; seq++) expect((await ingest("acme", "invoice.paid", seq)).status).toBe(202);

      // The stream: an ingest and a read every tick, at whichever web process is current, until
      // stopped; a 503 is retried with the same Idempotency-Key, as a client would.
      const answers: Answer[] = [];
      let phase: Phase = "old";
      let seq = 100;
      let running = true;
      const record = async (request: string, send: () => Promise<{ status: number; body: any }>) => {
        const at = { phase, target: target.name };
        try {
          const res = await send();
          answers.push({ ...at, request, status: res.status });
          return res;
        } catch (error) {
          answers.push({ ...at, request, status: 0, error: String((error as { cause?: unknown }).cause ?? error) });
          return null;
        }
      };
      const reads = [
        (id: string) => ["GET /messages/{id}", () => api("GET", `/messages/${id}`)] as const,
        (id: string) => ["GET /messages/{id}/attempts", () => api("GET", `/messages/${id}/attempts`)] as const,
        () => ["GET /messages", () => api("GET", "/messages?consumer=acme&limit=20")] as const,
        () => ["GET /consumers/{uid}/endpoints", () => api("GET", "/consumers/acme/endpoints")] as const,
        () => ["GET /endpoints/{id}/stats", () => api("GET", `/endpoints/${endpoints["/held-a"]!.id}/stats`)] as const,
        () => ["GET /attempts", () => api("GET", `/attempts?endpoint_id=${endpoints["/held-a"]!.id}&limit=20`)] as const,
      ];
      const loop = (async () => {
        for (let tick = 0; running; tick++) {
          seq += 1;
          const n = seq;
          for (let tries = 0; tries < 20 && running; tries++) {
            const res = await record("POST /messages", () => ingest("acme", "invoice.paid", n));
            if (res?.status !== 503) break;
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
          const ids = [...accepted.keys()];
          // Any message, old or new: the new web reads what the old code wrote, and back.
          const [request, send] = reads[tick % reads.length]!(ids[(tick * 7) % ids.length]!);
          await record(request, send);
          await new Promise((resolve) => setTimeout(resolve, 40));
        }
      })();
      stream = {
        stop: async () => {
          running = false;
          await loop;
        },
      };
      const answered = (p: Phase) => answers.filter((a) => a.phase === p).length;
      // Retries scheduled: the held endpoint's deliveries wait after a failed attempt.
      await waitFor(
        async () => answered("old") >= 20 && (await db`select 1 from deliveries where endpoint_id = ${endpoints["/held-a"]!.id} and status = 'pending' and attempts > 0 limit 1`).length > 0,
        { timeout: 60_000, interval: 200, what: "traffic and a scheduled retry on the old release" },
      );

      // The release step: this code's migrations, with all of the above running.
      const before = await rowCounts();
      phase = "migrating";
      const migrate = await runNode("scripts/migrate.ts", [], { env });
      phase = "migrated";
      const after = await rowCounts();
      expect(migrate.code, migrate.output).toBe(0);
      expect(migrate.output).toMatch(/^Applied \d+ migration step\(s\)/m);
      for (const table of TABLES) expect(after[table], table).toBeGreaterThanOrEqual(before[table]);
      expect(await pendingMigrations(url)).toEqual([]);

      // An old process that starts now (a supervisor's restart mid-rollout, migrating on start as
      // the old release does by default) starts and works beside the new schema.
      const restarted = await spawnWorker({ ...env, LOG_LEVEL: "info" }, { tree: release.dir });
      stops.push(() => restarted.kill());
      await waitFor(() => answered("migrated") >= 10, { timeout: 30_000, what: "traffic to the old web on the new schema" });

      // The new release: it refuses to migrate on start, and needs none.
      const [newWorker, newWeb] = await Promise.all([
        spawnWorker({ ...env, LOG_LEVEL: "info", MIGRATE_ON_START: "false" }),
        startProductionWeb({ ...env, MIGRATE_ON_START: "false", SHUTDOWN_DELAY: "0" }),
      ]);
      stops.push(() => newWorker.kill(), newWeb.stop);
      // The load balancer moves over once the new web is ready; then the old processes stop.
      expect((await fetch(`${newWeb.url}/api/health/ready`)).status).toBe(200);
      target = { name: "new web", url: newWeb.url };
      phase = "new";
      expect(await oldWeb.stop()).toBe(0);
      expect(await Promise.all([oldWorker.kill(), restarted.kill()])).toEqual([0, 0]);
      // Only now may the held endpoint take its backlog: the new worker delivers what the old queued.
      heldOpen = true;
      await waitFor(() => answered("new") >= 40, { timeout: 60_000, what: "traffic to the new web" });
      await stream.stop();

      // Every accepted message reaches each of its receivers; then nothing is left in the queue,
      // so no attempt is still on its way to make a duplicate.
      const expected = [...accepted].flatMap(([id, paths]) => paths.map((path) => `${path} ${id}`));
      const delivered = () => new Set(taken.filter((t) => t.status < 300).map((t) => `${t.path} ${t.id}`));
      await waitFor(() => expected.every((pair) => delivered().has(pair)), {
        timeout: 90_000,
        what: "every accepted message delivered",
        onTimeout: () => console.log("missing:", expected.filter((pair) => !delivered().has(pair)).slice(0, 20)),
      });
      await waitFor(async () => (await db`select count(*)::int as n from delivery_queue`)[0]!.n === 0, { timeout: 30_000, interval: 200, what: "the queue to empty" });

      const summary = Object.fromEntries(
        (["old", "migrating", "migrated", "new"] as const).map((p) => {
          const statuses: Record<string, number> = {};
          for (const a of answers.filter((x) => x.phase === p)) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
          return [p, statuses];
        }),
      );
      console.log(`upgrade ${PREVIOUS_RELEASE.version} → this code: answers by phase and status ${JSON.stringify(summary)}; ` +
        `${accepted.size} messages accepted, ${expected.length} deliveries; rows before/after migrate ${JSON.stringify(before)} ${JSON.stringify(after)}; ` +
        `migrate: ${migrate.output.trim()}; new web ready in ${(newWeb.readyAfterMs / 1000).toFixed(1)} s; ` +
        `the old processes logged ${JSON.stringify(complaints([oldWeb.output(), oldWorker.output(), restarted.output()]))}, ` +
        `the new ones ${JSON.stringify(complaints([newWeb.output(), newWorker.output()]))}`);

      // No 5xx but 503, and no request failed without an answer.
      expect(answers.filter((a) => a.status === 0 || (a.status >= 500 && a.status !== 503))).toEqual([]);
      expect(answers.filter((a) => a.request === "POST /messages" && a.status !== 202 && a.status !== 503)).toEqual([]);
      // Exactly once per message and endpoint, each signature verified, nothing for anyone else.
      const successes = taken.filter((t) => t.status < 300);
      expect(taken.filter((t) => !t.verified)).toEqual([]);
      expect(successes).toHaveLength(expected.length);
      expect(new Set(successes.map((t) => `${t.path} ${t.id}`))).toEqual(new Set(expected));
      // The failed delivery stayed failed: its two attempts, none since.
      expect(taken.filter((t) => t.path === "/dead-b")).toHaveLength(2);
      const statuses = await db<{ status: string; n: number }[]>`select status, count(*)::int as n from deliveries group by status order by status`;
      expect(statuses).toEqual([
        { status: "failed", n: 1 },
        { status: "succeeded", n: expected.length },
      ]);
      // The schema is this code's: readiness says so, on the web that now serves.
      expect((await fetch(`${newWeb.url}/api/health/ready`)).status).toBe(200);
      expect(await newWorker.kill()).toBe(0);
      expect(await newWeb.stop()).toBe(0);
    } finally {
      await stream?.stop();
      await Promise.all(stops.map((stop) => stop().catch(() => {})));
      await receiver.close();
      release.remove();
    }
  }, 300_000);
});

import { execFile } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import postgres from "postgres";
import { Webhook } from "svix";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createSql, type Sql } from "../../lib/db/client";
import { currentSecret } from "../../lib/endpoints/secrets";
import { findEndpointRow } from "../../lib/endpoints/queries";
import { ctxOver } from "../../lib/open-ctx";
import { apiClient } from "../helpers/api";
import { createConsumer, createEndpoint } from "../helpers/fixtures";
import { startReceiver, waitFor } from "../helpers/receiver";
import { sdkServer } from "./sdks";
import { spawnWorker } from "../helpers/worker-process";

// The importer end to end: this test file's database is a deployment served through our own Svix
// API (the source); `npm run cli -- svix import` copies it into a second database (the target), and
// a worker on the target delivers to a receiver that verifies with the secret the source had.

const run = promisify(execFile);
let target: { url: string; sql: Sql; drop: () => Promise<void> };
const source = sdkServer();
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const SECRET = `whsec_${randomBytes(24).toString("base64")}`;
const ids: { acme?: string; main?: string; paused?: string } = {};

/** The CLI as an operator runs it: the token in SVIX_TOKEN, never in argv. */
const cli = (args: string[], env: Record<string, string | undefined> = {}) =>
  run(process.execPath, ["--import", "tsx", path.resolve("scripts/cli.ts"), ...args], { env: { ...process.env, DATABASE_URL: target.url, SVIX_TOKEN: undefined, ...env } });
const importer = (args: string[]) => cli(["svix", "import", "--from-url", source.url, ...args], { SVIX_TOKEN: source.token });

/** A failed run of the CLI: its exit status and what it printed. */
const failing = async (args: string[], env: Record<string, string | undefined> = {}) => {
  const error = (await cli(args, env).then(
    () => expect.fail("the CLI succeeded"),
    (e: unknown) => e,
  )) as { code: number; stdout: string; stderr: string };
  return { code: error.code, stdout: error.stdout, stderr: error.stderr };
};

/**
 * A Svix server that misbehaves as a test tells it to: `lists` answers each list (event types,
 * applications, an application's endpoints) given the iterator asked for. Real HTTP on 127.0.0.1,
 * read by the SDK as a real deployment is.
 */
type Page = { data: unknown[]; iterator: string | null; done: boolean };
type Lists = { eventTypes: (iterator: string | null) => Page; apps: (iterator: string | null) => Page; endpoints: (app: string, iterator: string | null) => Page };
const done: Page = { data: [], iterator: null, done: true };
async function fakeSvix(lists: Partial<Lists>) {
  const all: Lists = { eventTypes: () => done, apps: () => done, endpoints: () => done, ...lists };
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://svix.test");
    requests.push(url.pathname);
    const iterator = url.searchParams.get("iterator");
    const path = url.pathname.replace(/\/+$/, "");
    const endpoint = path.match(/^\/api\/v1\/app\/([^/]+)\/endpoint(?:\/([^/]+)(?:\/(secret|headers))?)?$/);
    let body: unknown = null;
    if (path === "/api/v1/event-type") body = all.eventTypes(iterator);
    else if (path === "/api/v1/app") body = all.apps(iterator);
    else if (endpoint && !endpoint[2]) body = all.endpoints(decodeURIComponent(endpoint[1]!), iterator);
    else if (endpoint?.[3] === "secret") body = { key: SECRET };
    else if (endpoint?.[3] === "headers") body = { headers: {}, sensitive: [] };
    if (body === null) return void res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ code: "not_found", detail: "no" }));
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
const when = "2026-01-01T00:00:00Z";
const eventType = (name: string) => ({ name, description: "", archived: false, deprecated: false, createdAt: when, updatedAt: when });
const application = (id: string, uid: string | null, name = id) => ({ id, uid, name, metadata: {}, createdAt: when, updatedAt: when });

beforeAll(async () => {
  // The target: a second database, migrated like every test database.
  const admin = postgres(inject("serverUrl"), { max: 1, onnotice: () => {} });
  const name = `wa_test_import_${randomBytes(4).toString("hex")}_${inject("templateDatabase").split("_").pop()}`;
  await admin.unsafe(`create database ${name} template ${inject("templateDatabase")}`);
  const url = new URL(inject("serverUrl"));
  url.pathname = `/${name}`;
  const sql = createSql(url.toString(), { max: 2 });
  target = {
    url: url.toString(),
    sql,
    drop: async () => {
      await sql.end();
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };

  // The source, with what an integration on Svix holds.
  receiver = await startReceiver();
  const api = await apiClient();
  await api.post("/api/v1/event-types", { name: "invoice.paid", description: "An invoice was paid", schema: { type: "object", properties: { amount: { type: "integer" } } } });
  await api.post("/api/v1/event-types", { name: "invoice.voided" });
  ids.acme = (await createConsumer(api, { uid: "acme", name: "Acme", metadata: { plan: "pro" } })).id;
  await createConsumer(api, { uid: "globex", name: "Globex" });
  const main = await createEndpoint(api, "acme", `${receiver.url}/acme`, {
    uid: "main",
    description: "billing",
    event_types: ["invoice.paid"],
    channels: ["eu"],
    headers: { "X-Team": "billing", Authorization: "Bearer only-in-the-source" },
    rate_limit_per_second: 50,
    secret: SECRET,
  });
  ids.main = main.id;
  ids.paused = (await createEndpoint(api, "acme", `${receiver.url}/paused`, { disabled: true })).id;
});

afterAll(async () => {
  await target?.drop();
});

describe("npm run cli -- svix import", () => {
  it("reads everything on a dry run and writes nothing", async () => {
    const { stdout } = await importer(["--dry-run"]);
    expect(stdout).toMatch(/Dry run, nothing written/);
    expect(stdout).toMatch(/applications\s+2 found, 2 to create/);
    expect(stdout).toMatch(/endpoints\s+2 found, 2 to create/);
    const [row] = await target.sql<{ n: number }[]>`select count(*)::int as n from consumers`;
    expect(row!.n).toBe(0);
  });

  it("copies event types, applications and endpoints with their secrets, keeps the Svix ids as aliases, and says what it could not read", async () => {
    const { stdout } = await importer([]);
    expect(stdout).toMatch(/event types\s+2 found, 2 created/);
    expect(stdout).toMatch(/applications\s+2 found, 2 created/);
    expect(stdout).toMatch(/endpoints\s+2 found, 2 created/);
    // Svix never reveals a sensitive header's value: the summary says so, naming it.
    expect(stdout).toMatch(/does not reveal the values of authorization/i);

    const [consumer] = await target.sql<{ id: string; uid: string; name: string; metadata: unknown; svix_id: string }[]>`
      select id, uid, name, metadata, svix_id from consumers where uid = 'acme'`;
    expect(consumer).toMatchObject({ uid: "acme", name: "Acme", metadata: { plan: "pro" }, svix_id: ids.acme });
    const ctx = ctxOver(target.sql);
    const main = await findEndpointRow(ctx, ids.main!);
    expect(main).toMatchObject({
      consumerId: consumer!.id,
      url: `${receiver.url}/acme`,
      uid: "main",
      description: "billing",
      eventTypes: ["invoice.paid"],
      channels: ["eu"],
      headers: { "X-Team": "billing" },
      rateLimitPerSecond: 50,
      state: "active",
      svixHeaders: true,
    });
    expect(main.id).not.toBe(ids.main);
    expect(await currentSecret(ctx, main.id)).toBe(SECRET);
    expect((await findEndpointRow(ctx, ids.paused!)).state).toBe("disabled");
    const [type] = await target.sql<{ description: string; schema: unknown }[]>`select description, schema from event_types where name = 'invoice.paid'`;
    expect(type).toEqual({ description: "An invoice was paid", schema: { type: "object", properties: { amount: { type: "integer" } } } });
  });

  it("changes nothing when run again", async () => {
    const before = await target.sql`select id, updated_at from endpoints order by id`;
    const { stdout } = await importer([]);
    expect(stdout).toMatch(/applications\s+2 found, 0 created, 2 already here/);
    expect(stdout).toMatch(/endpoints\s+2 found, 0 created, 2 already here/);
    expect(await target.sql`select id, updated_at from endpoints order by id`).toEqual(before);
  });

  it("refuses a token given in argv, pointing at SVIX_TOKEN, and without one at no terminal says where to put it", async () => {
    const token = "sk_given_on_the_command_line";
    const refused = await failing(["svix", "import", "--from-url", source.url, "--from-token", token]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/--from-token is no longer taken/);
    expect(refused.stderr).toMatch(/SVIX_TOKEN/);
    expect(refused.stderr + refused.stdout).not.toContain(token);
    const inline = await failing(["svix", "import", `--from-token=${token}`, "--from-url", source.url]);
    expect(inline.stderr).toMatch(/--from-token is no longer taken/);
    // stdin is not a terminal here: nobody to ask.
    const none = await failing(["svix", "import", "--from-url", source.url]);
    expect(none.stderr).toMatch(/needs the Svix API token in SVIX_TOKEN/);
    const bad = await failing(["svix", "import", "--from-url", source.url, "--max-pages", "0"], { SVIX_TOKEN: source.token });
    expect(bad.stderr).toMatch(/--max-pages is a whole number/);
  });

  it("stops on a list that hands back an iterator it gave before, saying so, with what it did", async () => {
    // Event types: page 1 → it_a → it_b → it_a again.
    const next: Record<string, string> = { "": "it_a", it_a: "it_b", it_b: "it_a" };
    const svix = await fakeSvix({ eventTypes: (it) => ({ data: [eventType(`loop.${it ?? "first"}`)], iterator: next[it ?? ""]!, done: false }) });
    try {
      const { code, stdout } = await failing(["svix", "import", "--from-url", svix.url, "--dry-run"], { SVIX_TOKEN: "sk_fake" });
      expect(code).toBe(1);
      expect(stdout).toMatch(/Stopped: event types: page 3 handed back an iterator already given/);
      expect(stdout).toMatch(/event types\s+3 found, 3 to create/);
      expect(svix.requests.filter((p) => p.startsWith("/api/v1/event-type"))).toHaveLength(3);
    } finally {
      await svix.close();
    }
  });

  it("stops at the page limit on a list that never ends, and on a page longer than asked for", async () => {
    let n = 0;
    const svix = await fakeSvix({ apps: () => ({ data: [application(`app_${++n}`, null)], iterator: `it_${n}`, done: false }) });
    try {
      const { stdout } = await failing(["svix", "import", "--from-url", svix.url, "--dry-run", "--max-pages", "3"], { SVIX_TOKEN: "sk_fake" });
      expect(stdout).toMatch(/Stopped: applications: still not done after 3 pages of 250; stopped \(--max-pages raises the limit\)/);
      expect(stdout).toMatch(/applications\s+3 found/);
      expect(n).toBe(3);
    } finally {
      await svix.close();
    }
    const long = await fakeSvix({ eventTypes: () => ({ data: Array.from({ length: 251 }, (_, i) => eventType(`many.e${i}`)), iterator: null, done: true }) });
    try {
      const { stdout } = await failing(["svix", "import", "--from-url", long.url, "--dry-run"], { SVIX_TOKEN: "sk_fake" });
      expect(stdout).toMatch(/Stopped: event types: page 1 held 251 items, 250 were asked for/);
      expect(stdout).toMatch(/event types\s+0 found/);
    } finally {
      await long.close();
    }
  });

  it("prints what the server sent escaped, and lists a bounded number of problems", async () => {
    const esc = "\u001b[2J\u001b]0;owned\u0007\r\u202e";
    // 230 event types it cannot take (names with a control character), one application named with escapes.
    const svix = await fakeSvix({
      eventTypes: () => ({ data: Array.from({ length: 230 }, (_, i) => eventType(`bad${esc}.e${i}`)), iterator: null, done: true }),
      apps: () => ({ data: [application("app_esc", `acme${esc}`)], iterator: null, done: true }),
    });
    try {
      const { stdout } = await failing(["svix", "import", "--from-url", svix.url, "--dry-run"], { SVIX_TOKEN: "sk_fake" });
      // Nothing raw: no ESC, BEL, CR or bidi override reaches the terminal; each is shown escaped.
      expect(stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
      expect(stdout).toContain("application 1: acme\\u001b[2J\\u001b]0;owned\\u0007\\u000d\\u202e");
      expect(stdout).toContain("! event type bad\\u001b[2J");
      const listed = stdout.split("\n").filter((line) => line.startsWith("  ! event type"));
      expect(listed).toHaveLength(200);
      expect(stdout).toContain("  ! … and 30 more not listed");
      expect(stdout).toMatch(/event types\s+230 found, 0 to create, 0 already here, 230 failed/);
    } finally {
      await svix.close();
    }
  });

  it("delivers from the target signed so a receiver keeping the source's secret verifies it", async () => {
    const worker = await spawnWorker({ DATABASE_URL: target.url });
    try {
      const file = path.join(await mkdtemp(path.join(tmpdir(), "svix-import-")), "one.jsonl");
      await writeFile(file, `${JSON.stringify({ consumer: "acme", event_type: "invoice.paid", payload: { amount: 4200 }, channels: ["eu"] })}\n`);
      await run(process.execPath, ["--import", "tsx", path.resolve("scripts/cli.ts"), "messages", "send-batch", file], { env: { ...process.env, DATABASE_URL: target.url } });
      await waitFor(() => receiver.received.some((r) => r.path === "/acme"), { what: "the delivery from the target" });
      const got = receiver.received.find((r) => r.path === "/acme")!;
      const headers = got.headers as Record<string, string>;
      // What a receiver written for Svix reads: the svix-* names, checked with the source's secret.
      const svixOnly = { "svix-id": headers["svix-id"]!, "svix-timestamp": headers["svix-timestamp"]!, "svix-signature": headers["svix-signature"]! };
      expect(new Webhook(SECRET).verify(got.body, svixOnly)).toEqual({ amount: 4200 });
      expect(headers["x-team"]).toBe("billing");
    } finally {
      await worker.kill();
    }
  });
});

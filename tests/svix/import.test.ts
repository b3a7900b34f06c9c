import { execFile } from "node:child_process";
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

const importer = (args: string[]) =>
  run(process.execPath, ["--import", "tsx", path.resolve("scripts/cli.ts"), "svix", "import", "--from-url", source.url, "--from-token", source.token, ...args], {
    env: { ...process.env, DATABASE_URL: target.url },
  });

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

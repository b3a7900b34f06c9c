import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { keyIdOf } from "../../lib/crypto/encryption";
import { resetConfigForTests } from "../../lib/config";
import { getDb } from "../../lib/db/client";
import { endpointSecrets, operators } from "../../lib/db/schema";
import { apiClient, call, clientFor } from "../helpers/api";
import { createConsumer, createEndpoint } from "../helpers/fixtures";
import { getSql } from "../../lib/db/client";

const run = promisify(execFile);
const cli = (args: string[], env: Record<string, string> = {}) =>
  run(process.execPath, ["--import", "tsx", path.resolve("scripts/cli.ts"), ...args], { env: { ...process.env, ...env } });

describe("npm run cli", () => {
  it("creates an API key, printed as the last line, that the API accepts; revokes it", async () => {
    const { stdout } = await cli(["api-key", "create", "--name", "ci"]);
    const key = stdout.trim().split("\n").at(-1)!;
    expect(key).toMatch(/^sk_[A-Za-z0-9_-]{43}$/);
    expect((await call("GET", "/api/v1/consumers", { key })).status).toBe(200);
    await cli(["api-key", "revoke", key.slice(0, 10)]);
    expect((await call("GET", "/api/v1/consumers", { key })).status).toBe(401);
  });

  it("creates an operator login and refuses bad input with a non-zero exit", async () => {
    await cli(["operator", "create", "--email", "Ops@Example.com", "--password", "correct horse battery"]);
    const [row] = await getDb().select().from(operators).where(eq(operators.email, "ops@example.com"));
    expect(row!.passwordHash).toMatch(/^scrypt\$/);
    expect(row!.passwordHash).not.toContain("correct horse");
    expect(row!.role).toBe("admin");
    await cli(["operator", "create", "--email", "watcher@example.com", "--password", "correct horse battery", "--role", "viewer"]);
    const [viewer] = await getDb().select().from(operators).where(eq(operators.email, "watcher@example.com"));
    expect(viewer!.role).toBe("viewer");
    await expect(cli(["operator", "create", "--email", "x@example.com", "--password", "correct horse battery", "--role", "root"])).rejects.toMatchObject({ code: 1 });
    await expect(cli(["operator", "create", "--email", "nope", "--password", "short"])).rejects.toMatchObject({ code: 1 });
    await expect(cli(["api-key", "create"])).rejects.toMatchObject({ code: 1 });
  });

  it("disables an operator login and enables it again, by email", async () => {
    await cli(["operator", "create", "--email", "temp@example.com", "--password", "correct horse battery", "--role", "viewer"]);
    const disabled = await cli(["operator", "disable", "--email", "Temp@Example.com"]);
    expect(disabled.stdout).toMatch(/^Disabled operator temp@example\.com \(op_/m);
    const row = async () => (await getDb().select().from(operators).where(eq(operators.email, "temp@example.com")))[0]!;
    expect((await row()).disabledAt).toBeInstanceOf(Date);
    expect((await cli(["operator", "enable", "--email", "temp@example.com"])).stdout).toMatch(/^Enabled operator temp@example\.com/m);
    expect((await row()).disabledAt).toBeNull();
    await expect(cli(["operator", "disable"])).rejects.toMatchObject({ code: 1 });
    await expect(cli(["operator", "disable", "--email", "nobody@example.com"])).rejects.toMatchObject({ code: 1 });
  });

  it("re-encrypts every secret under a new ENCRYPTION_KEY", async () => {
    const { stdout } = await cli(["api-key", "create", "--name", "rotation"]);
    const key = stdout.trim().split("\n").at(-1)!;
    const api = clientFor(key);
    await createConsumer(api, { uid: "enc", name: "Enc" });
    const endpoint = await createEndpoint(api, "enc", "https://enc.example/");
    const secret = (await call("GET", `/api/v1/endpoints/${endpoint.id}/secret`, { key })).body.key as string;

    const oldKey = process.env.ENCRYPTION_KEY!;
    const newKey = randomBytes(32).toString("hex");
    await cli(["secrets", "reencrypt"], { ENCRYPTION_KEY: newKey, ENCRYPTION_KEYS_PREVIOUS: oldKey });
    const [row] = await getDb().select().from(endpointSecrets).where(eq(endpointSecrets.endpointId, endpoint.id));
    expect(row!.keyId).toBe(keyIdOf(Buffer.from(newKey, "hex")));
    expect(row!.ciphertext).not.toContain(secret.slice(6));

    process.env.ENCRYPTION_KEY = newKey;
    resetConfigForTests();
    try {
      // Only the new key is configured now, and the secret still reads back.
      expect((await call("GET", `/api/v1/endpoints/${endpoint.id}/secret`, { key })).body.key).toBe(secret);
    } finally {
      process.env.ENCRYPTION_KEY = oldKey;
      resetConfigForTests();
    }
  });

  it("sends a JSON Lines file in batches of 100, reporting each failed line by number; a rerun sends nothing twice", async () => {
    const api = await apiClient();
    await createConsumer(api, { uid: "backfill", name: "Backfill" });
    const lines = Array.from({ length: 240 }, (_, i) =>
      JSON.stringify({ consumer: "backfill", event_type: "invoice.paid", payload: { i }, idempotency_key: `backfill-${i}` }),
    );
    lines.splice(150, 0, "", "{not json", JSON.stringify({ consumer: "nobody", event_type: "invoice.paid", payload: {} }));
    lines.push(JSON.stringify({ consumer: "backfill", event_type: "bad type!", payload: {} }));
    const file = path.join(await mkdtemp(path.join(tmpdir(), "send-batch-")), "backfill.jsonl");
    await writeFile(file, lines.join("\n") + "\n");
    const count = async () => (await getSql()<{ n: number }[]>`select count(*)::int as n from messages m join consumers c on c.id = m.consumer_id where c.uid = 'backfill'`)[0]!.n;

    // Some lines failed: the exit status says so, after everything else was sent.
    const first = await cli(["messages", "send-batch", file]).then(
      () => expect.fail("exit status 0"),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(first.code).toBe(1);
    expect(first.stdout).toContain("100 lines sent: 100 accepted (0 replayed), 0 failed");
    expect(first.stdout).toContain("200 lines sent: 198 accepted (0 replayed), 2 failed");
    expect(first.stdout).toContain("Done: 243 lines, 240 accepted (0 of them replayed), 3 failed.");
    expect(first.stderr).toContain("line 152: invalid_json");
    expect(first.stderr).toMatch(/line 153: 404 not_found: No consumer "nobody"/);
    expect(first.stderr).toMatch(/line 244: 422 validation_failed: .*event_type/);
    expect(await count()).toBe(240);

    const again = await cli(["messages", "send-batch", file]).catch((error: { code: number; stdout: string }) => error as { code: number; stdout: string });
    expect(again.stdout).toContain("Done: 243 lines, 240 accepted (240 of them replayed), 3 failed.");
    expect(await count()).toBe(240);

    const clean = path.join(path.dirname(file), "clean.jsonl");
    await writeFile(clean, JSON.stringify({ consumer: "backfill", event_type: "invoice.paid", payload: { last: true } }) + "\n");
    const { stdout } = await cli(["messages", "send-batch", clean]);
    expect(stdout).toContain("Done: 1 lines, 1 accepted (0 of them replayed), 0 failed.");
    expect(await count()).toBe(241);
    await expect(cli(["messages", "send-batch"])).rejects.toMatchObject({ code: 1 });
  });
});

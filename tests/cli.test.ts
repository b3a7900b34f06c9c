import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { keyIdOf } from "../lib/crypto/encryption";
import { resetConfigForTests } from "../lib/config";
import { getDb } from "../lib/db/client";
import { endpointSecrets, operators } from "../lib/db/schema";
import { call } from "./helpers/api";

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

  it("re-encrypts every secret under a new ENCRYPTION_KEY", async () => {
    const { stdout } = await cli(["api-key", "create", "--name", "rotation"]);
    const key = stdout.trim().split("\n").at(-1)!;
    await call("POST", "/api/v1/consumers", { key, body: { uid: "enc", name: "Enc" } });
    const endpoint = (await call("POST", "/api/v1/consumers/enc/endpoints", { key, body: { url: "https://enc.example/" } })).body;
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
});

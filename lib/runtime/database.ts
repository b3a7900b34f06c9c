import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { runningEmbeddedPostgres, startEmbeddedPostgres } from "../db/embedded";
import { DEMO_DEFAULTS } from "./demo-defaults";

export const DATA_DIR = path.resolve(process.env.WEBHOOK_ADMIN_DATA_DIR ?? ".data");

export type DatabaseHandle = { url: string; embedded: boolean; stop: () => Promise<void> };

/** A secret the embedded demo generates once and keeps beside its data (its encryption key, its session secret). */
async function keptSecret(name: string, encoding: "hex" | "base64url"): Promise<string> {
  const file = path.join(DATA_DIR, name);
  if (existsSync(file)) return (await readFile(file, "utf8")).trim();
  await mkdir(DATA_DIR, { recursive: true });
  const key = randomBytes(32).toString(encoding);
  await writeFile(file, key + "\n", { mode: 0o600 });
  return key;
}

/**
 * DATABASE_URL when set; otherwise the embedded PostgreSQL under .data/ — shared with a running
 * `npm start` when there is one. Fills in the embedded demo's defaults (its encryption key and
 * session secret, loopback and plain-http endpoints allowed: DEMO_DEFAULTS) without overriding what
 * the environment says.
 */
export async function resolveDatabase(options: { log?: (line: string) => void; share?: boolean } = {}): Promise<DatabaseHandle> {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL, embedded: false, stop: async () => {} };
  // Under root the server runs as the "postgres" user, which must be able to enter the data folder.
  await mkdir(DATA_DIR, { recursive: true, mode: 0o755 });
  await chmod(DATA_DIR, 0o755).catch(() => {});
  process.env.ENCRYPTION_KEY ||= await keptSecret("encryption-key", "hex");
  process.env.AUTH_SECRET ||= await keptSecret("auth-secret", "base64url");
  for (const [name, value] of Object.entries(DEMO_DEFAULTS)) process.env[name] ||= value;
  const dir = path.join(DATA_DIR, "embedded");
  const running = options.share ? await runningEmbeddedPostgres(dir) : null;
  const handle = running
    ? { url: running, stop: async () => {} }
    : await startEmbeddedPostgres({ dir, log: options.log });
  process.env.DATABASE_URL = handle.url;
  return { ...handle, embedded: true };
}

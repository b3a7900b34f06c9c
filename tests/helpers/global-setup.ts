import type { TestProject } from "vitest/node";
import postgres from "postgres";
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startEmbeddedPostgres, stopLeftoverServer } from "../../lib/db/embedded";
import { migrateDatabase } from "../../lib/db/migrate";

type Shared = { serverUrl: string; template: string; users: number; teardown: () => Promise<void> };
// The tiers (vitest.config.ts) are projects of one run, and each runs its global setup: they share
// one server and one template, made by the first and torn down by the last.
const SHARED = Symbol.for("webhook-admin.test-database");
const holder = globalThis as unknown as { [SHARED]?: Promise<Shared> };

/**
 * Once per `npm test`: a PostgreSQL server (DATABASE_URL's, or an embedded one of the tests' own)
 * and a template database migrated once, which every test file clones into a database of its own.
 */
export default async function setup(project: TestProject) {
  holder[SHARED] ??= prepare();
  const shared = await holder[SHARED];
  shared.users += 1;
  project.provide("serverUrl", shared.serverUrl);
  project.provide("templateDatabase", shared.template);
  return async () => {
    shared.users -= 1;
    if (shared.users === 0) {
      delete holder[SHARED];
      await shared.teardown();
    }
  };
}

async function prepare(): Promise<Shared> {
  let serverUrl = process.env.DATABASE_URL;
  let stop = async () => {};
  if (!serverUrl) {
    // A cluster per run, so test runs side by side (or beside `npm start`) never share one.
    // Under the system temp folder, which the "postgres" user can always reach (even when the
    // project sits in a private home and runs as root).
    const root = path.join(tmpdir(), "webhook-admin-test");
    mkdirSync(root, { recursive: true, mode: 0o755 });
    await removeAbandonedClusters(root);
    const dir = path.join(root, String(process.pid));
    const embedded = await startEmbeddedPostgres({
      dir,
      // Throwaway data: durability settings off make the suite several times faster.
      settings: { fsync: "off", synchronous_commit: "off", full_page_writes: "off" },
    });
    serverUrl = embedded.url;
    stop = async () => {
      await embedded.stop();
      rmSync(dir, { recursive: true, force: true });
    };
  }
  const template = `wa_test_template_${process.pid}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${template}`);
  await admin.unsafe(`create database ${template}`);
  const templateUrl = withDatabase(serverUrl, template);
  await migrateDatabase(templateUrl);
  const teardown = async () => {
    const leftovers = await admin<{ datname: string }[]>`
      select datname from pg_database where datname like ${`wa_test_%_${process.pid}`} or datname = ${template}`;
    for (const { datname } of leftovers) await admin.unsafe(`drop database if exists ${datname} with (force)`);
    await admin.end();
    await stop();
  };
  return { serverUrl, template, users: 0, teardown };
}

async function removeAbandonedClusters(root: string): Promise<void> {
  let entries: string[] = [];
  try {
    entries = readdirSync(root);
  } catch {
    return;
  }
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      process.kill(pid, 0);
    } catch {
      // The run that made it is gone: stop any server it left behind, then drop its data.
      await stopLeftoverServer(path.join(root, entry, "pg"), () => {});
      rmSync(path.join(root, entry), { recursive: true, force: true });
    }
  }
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

declare module "vitest" {
  export interface ProvidedContext {
    serverUrl: string;
    templateDatabase: string;
  }
}

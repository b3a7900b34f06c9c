import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { createApiKey } from "../lib/api-keys";
import { createSql, type Sql } from "../lib/db/client";
import { newId } from "../lib/ids";
import { ctxOver } from "../lib/open-ctx";
import { startEmbeddedPostgres } from "../lib/db/embedded";
import { migrateDatabase } from "../lib/db/migrate";
import { parseConfig } from "../lib/config";
import { sleep } from "./stats";

export const BENCH_DIR = path.resolve(".data/bench");

export type BenchDatabase = {
  url: string;
  /** How the server was obtained and its durability settings, for the printout. */
  description: string;
  version: string;
  /** The postmaster's pid when it runs on this machine under our control (for CPU figures). */
  postgresPid?: number;
  /** A raw connection of the bench's own, for counting attempts. */
  sql: Sql;
  apiKey: string;
  stop: () => Promise<void>;
};

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A server left running by an earlier, killed bench would keep the data dir busy: stop it first. */
async function stopLeftover(dataDir: string): Promise<void> {
  const pidFile = path.join(dataDir, "postmaster.pid");
  if (!existsSync(pidFile)) return;
  const pid = Number((await readFile(pidFile, "utf8")).split("\n")[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return;
  process.kill(pid, "SIGINT");
  for (let i = 0; i < 300 && isAlive(pid); i++) await sleep(100);
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/**
 * A fresh, migrated database with one API key: an embedded PostgreSQL in .data/bench (wiped first),
 * or a new database on DATABASE_URL's server (dropped at the end).
 */
export async function prepareDatabase(options: {
  fsync: boolean;
  log: (line: string) => void;
  /** More server settings for the embedded server (ignored on DATABASE_URL's), e.g. to load pg_stat_statements. */
  settings?: Record<string, string>;
}): Promise<BenchDatabase> {
  let url: string;
  let description: string;
  let stopServer = async () => {};
  let postgresPid: number | undefined;
  let dropDatabase = async () => {};
  if (process.env.DATABASE_URL) {
    const name = `webhook_admin_bench_${process.pid}`;
    const admin = createSql(process.env.DATABASE_URL, { max: 1, name: "webhook-admin-bench" });
    await admin.unsafe(`drop database if exists ${name}`);
    await admin.unsafe(`create database ${name}`);
    await admin.end();
    url = withDatabase(process.env.DATABASE_URL, name);
    description = `DATABASE_URL's server, fresh database ${name}`;
    dropDatabase = async () => {
      const again = createSql(process.env.DATABASE_URL!, { max: 1, name: "webhook-admin-bench" });
      await again.unsafe(`drop database if exists ${name} with (force)`).catch(() => {});
      await again.end();
    };
  } else {
    await stopLeftover(path.join(BENCH_DIR, "pg"));
    await rm(BENCH_DIR, { recursive: true, force: true });
    options.log(`Starting an embedded PostgreSQL in ${path.relative(process.cwd(), BENCH_DIR)} (wiped)…`);
    const settings: Record<string, string> = {
      shared_buffers: "512MB",
      // Room for the whole run's WAL, so no checkpoint lands in the middle of a measurement.
      max_wal_size: "8GB",
      checkpoint_timeout: "30min",
      ...(options.fsync ? {} : { fsync: "off", synchronous_commit: "off", full_page_writes: "off" }),
      ...options.settings,
    };
    const embedded = await startEmbeddedPostgres({ dir: BENCH_DIR, settings, log: options.log });
    url = embedded.url;
    stopServer = embedded.stop;
    postgresPid = Number((await readFile(path.join(BENCH_DIR, "pg", "postmaster.pid"), "utf8")).split("\n")[0]);
    const tuning = Object.entries(settings).filter(([k]) => !["fsync", "synchronous_commit"].includes(k));
    description = `embedded, ${tuning.map(([k, v]) => `${k}=${v}`).join(" ")}`;
  }

  await migrateDatabase(url);
  const drizzleSql = createSql(url, { max: 1, name: "webhook-admin-bench" });
  // The bench's own process has no product environment (each product process gets productEnv's).
  const config = parseConfig({ ...process.env, DATABASE_URL: url, ENCRYPTION_KEY: randomBytes(32).toString("hex") });
  const { key } = await createApiKey({ ctx: ctxOver(drizzleSql, { type: "system" }, config), input: { name: "bench" } });
  await drizzleSql.end();

  const sql = createSql(url, { max: 2, name: "webhook-admin-bench" });
  const [row] = await sql<{ version: string; fsync: string; synchronous_commit: string }[]>`
    select version() as version, current_setting('fsync') as fsync, current_setting('synchronous_commit') as synchronous_commit`;
  description += ` (fsync=${row!.fsync}, synchronous_commit=${row!.synchronous_commit})`;
  return {
    url,
    description,
    version: row!.version,
    postgresPid,
    sql,
    apiKey: key,
    stop: async () => {
      await sql.end({ timeout: 5 }).catch(() => {});
      await dropDatabase();
      await stopServer();
    },
  };
}

/** Attempts written so far (all of them: the bench database is its own), and how many failed. */
export async function countAttempts(sql: Sql): Promise<{ total: number; failed: number }> {
  const [row] = await sql<{ total: string; failed: string }[]>`
    select count(*) as total, count(*) filter (where not success) as failed from attempts`;
  return { total: Number(row!.total), failed: Number(row!.failed) };
}

export async function countPending(sql: Sql): Promise<number> {
  const [row] = await sql<{ n: string }[]>`select count(*) as n from delivery_queue`;
  return Number(row!.n);
}

/**
 * `count` consumers with one endpoint each, by SQL, for the parts that call lib/ in-process and
 * deliver nothing: the endpoints' URL is never called.
 */
export async function seedEndpoints(sql: Sql, count: number, prefix: string): Promise<{ id: string; consumer: string }[]> {
  const endpoints: { id: string; consumer: string }[] = [];
  for (let i = 0; i < count; i++) {
    const consumer = newId("consumer");
    const id = newId("endpoint");
    await sql`insert into consumers (id, uid, name) values (${consumer}, ${`${prefix}-${i}`}, ${`${prefix}-${i}`})`;
    await sql`insert into endpoints (id, consumer_id, url) values (${id}, ${consumer}, 'http://127.0.0.1:9/')`;
    endpoints.push({ id, consumer });
  }
  return endpoints;
}

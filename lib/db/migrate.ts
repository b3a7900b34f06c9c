import { PgDialect, type PgSession } from "drizzle-orm/pg-core";
import { drizzle } from "drizzle-orm/postgres-js";
import { readMigrationFiles, type MigrationMeta } from "drizzle-orm/migrator";
import { runMigrations } from "graphile-worker";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ConfigError } from "../config";
import { createSql, type Sql } from "./client";
import { nodePostgresPool } from "./node-postgres";
import { splitConcurrent, type ConcurrentStatement } from "./concurrent-statements";
import { applySqlFunctions } from "./functions";
import { retryOnConflict } from "./retry";
import { readSchemaStatus } from "./schema-status";

const MIGRATIONS = fileURLToPath(new URL("../../drizzle", import.meta.url));
// Any fixed number: web and worker processes starting together take turns migrating.
const MIGRATION_LOCK = 727_001;
const LOCK_POLL_MS = 250;

type Options = {
  migrationsFolder?: string;
  /**
   * Only the migrations up to this one (its number, e.g. 14 for 0014): the schema as a release that
   * ended there left it, for tests and benchmarks of an upgrade. Leaves graphile-worker's schema and
   * the SQL functions alone, as `migrationsFolder` does.
   */
  upTo?: number;
};

/**
 * Takes the migration lock by polling pg_try_advisory_lock rather than waiting in
 * pg_advisory_lock: a session blocked inside that call holds a snapshot, and CREATE INDEX
 * CONCURRENTLY (run while the lock is held) waits for every older snapshot to end — the waiter
 * and the index build would wait on each other until the deadlock detector killed one.
 */
async function lock(sql: Sql): Promise<void> {
  for (;;) {
    const [row] = await sql<{ ok: boolean }[]>`select pg_try_advisory_lock(${MIGRATION_LOCK}) as ok`;
    if (row?.ok) return;
    await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
  }
}

function readJournal(folder: string): { tag: string; when: number }[] {
  return (JSON.parse(readFileSync(path.join(folder, "meta", "_journal.json"), "utf8")) as { entries: { tag: string; when: number }[] }).entries;
}

/** A migration: its statements for drizzle's transaction, and those it marks to run after it, outside. */
type Step = { migration: MigrationMeta; concurrent: ConcurrentStatement[] };

function readMigrations(folder: string, upTo = Number.POSITIVE_INFINITY): Step[] {
  // In the journal's order, which is the files' numbers'.
  return readMigrationFiles({ migrationsFolder: folder })
    .slice(0, upTo + 1)
    .map((migration) => {
      const split = splitConcurrent(migration.sql);
      // The hash stays the file's own: drizzle records it, and it must not depend on this split.
      return { migration: { ...migration, sql: split.transactional }, concurrent: split.concurrent };
    });
}

/** Index names of marked statements whose index is missing or INVALID (a CREATE), or still there (a DROP). */
async function unfinishedConcurrent(sql: Sql, statements: ConcurrentStatement[]): Promise<ConcurrentStatement[]> {
  const unfinished: ConcurrentStatement[] = [];
  for (const statement of statements) {
    const [row] = await sql<{ valid: boolean }[]>`
      select i.indisvalid as valid from pg_index i join pg_class c on c.oid = i.indexrelid
      join pg_namespace n on n.oid = c.relnamespace where n.nspname = ${statement.schema} and c.relname = ${statement.index}`;
    if (statement.kind === "create_index" ? !row?.valid : row !== undefined) unfinished.push(statement);
  }
  return unfinished;
}

/**
 * Runs marked statements outside any transaction, after drizzle's batch committed, in file order;
 * on every migrate, so one cut off by a crash is finished by the next start. An index left INVALID
 * by a failed build is dropped first (IF NOT EXISTS would otherwise keep it).
 */
async function runConcurrent(sql: Sql, statements: ConcurrentStatement[]): Promise<void> {
  for (const statement of await unfinishedConcurrent(sql, statements)) {
    if (statement.kind === "create_index") {
      await sql.unsafe(`drop index concurrently if exists "${statement.schema.replace(/"/g, '""')}"."${statement.index.replace(/"/g, '""')}"`);
    }
    await sql.unsafe(statement.sql);
  }
}

/**
 * Brings the app schema (drizzle/), graphile-worker's own schema and our SQL functions up to date.
 * Idempotent; processes starting together take turns (an advisory lock).
 */
export async function migrateDatabase(url: string, options: Options = {}): Promise<void> {
  const folder = options.migrationsFolder ?? MIGRATIONS;
  const steps = readMigrations(folder, options.upTo);
  const sql = createSql(url, { max: 1, name: "webhook-admin-migrate" });
  try {
    // One connection (max: 1), so the session lock covers every step's work.
    await lock(sql);
    // The pending migrations go in one transaction up to each that marks statements to run outside
    // one, which run right after it commits: a later migration of the batch then finds what they
    // built. (All in one transaction, an install two releases behind had 0015's index on messages
    // built inside the transaction of 0017, which locks messages: writes waited for the whole
    // index build, and in steps only for the catalog changes — docs/benchmarks.md#the-upgrade.)
    for (let end = 0; end < steps.length; end++) {
      if (steps[end]!.concurrent.length === 0 && end < steps.length - 1) continue;
      const batch = steps.slice(0, end + 1);
      // Each transaction meets the processes of the release still serving, which go on writing and
      // take the same tables' locks in their own order: a migration that alters endpoints and then
      // renames messages meets an ingest that wrote its message and then checks its delivery's
      // endpoint. PostgreSQL ends one of the two, the one that began waiting first: mostly the
      // writer (which retries), but the migration when the writer was between statements. Rolled
      // back whole, it runs again.
      await retryOnConflict(() =>
        new PgDialect().migrate(batch.map((s) => s.migration), drizzle(sql)._.session as unknown as PgSession, { migrationsFolder: folder }),
      );
      await runConcurrent(sql, batch.flatMap((s) => s.concurrent));
    }
    if (!options.migrationsFolder && options.upTo === undefined) {
      // graphile-worker's driver, given what it cannot read from a failover URL itself.
      const pgPool = nodePostgresPool(url, { max: 1 });
      // A client that loses its server: the migration's next query fails and says so; not a crash.
      pgPool.on("error", () => {});
      pgPool.on("connect", (client) => client.on("error", () => {}));
      try {
        await runMigrations({ pgPool });
      } finally {
        await pgPool.end();
      }
      // A process older than the schema — one of the previous release, restarting while the next
      // rolls out — leaves the SQL functions as the newer release made them: CREATE OR REPLACE
      // would put its own bodies back under the new release's workers.
      if (!(await readSchemaStatus(sql, readJournal(folder))).ahead) await applySqlFunctions(sql);
    }
    await sql`select pg_advisory_unlock(${MIGRATION_LOCK})`;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

export class SchemaBehindError extends ConfigError {
  override name = "SchemaBehindError";
}

/** What `npm run migrate` would still do: journal entries not applied, and marked index statements not finished. */
export async function pendingMigrations(url: string, options: Options = {}): Promise<string[]> {
  const folder = options.migrationsFolder ?? MIGRATIONS;
  const concurrent = readMigrations(folder).flatMap((s) => s.concurrent);
  const sql = createSql(url, { max: 1, name: "webhook-admin-migrate-check" });
  try {
    const { pending } = await readSchemaStatus(sql, readJournal(folder));
    const unfinished = pending.length > 0 ? [] : await unfinishedConcurrent(sql, concurrent);
    return [...pending, ...unfinished.map((s) => `${s.kind === "create_index" ? "create" : "drop"} index ${s.index} (concurrently)`)];
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/**
 * On start: migrate (MIGRATE_ON_START, the default), or refuse to start while the schema is behind
 * this code — for deployments that run `npm run migrate` as their own step.
 */
export async function migrateOnStart(url: string, migrate: boolean, who: string): Promise<void> {
  if (migrate) return migrateDatabase(url);
  const pending = await pendingMigrations(url);
  if (pending.length > 0) {
    throw new SchemaBehindError(
      `The database schema is behind this release of the ${who}: ${pending.length} migration step(s) pending (${pending.join(", ")}).\n` +
        "MIGRATE_ON_START=false: run `npm run migrate` against this DATABASE_URL first, then start it again.",
    );
  }
}

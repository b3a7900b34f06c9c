import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSql } from "../../lib/db/client";
import { migrateDatabase, pendingMigrations } from "../../lib/db/migrate";
import { runNode } from "../helpers/node-process";
import { spawnWorker } from "../helpers/worker-process";
import journal from "../../drizzle/meta/_journal.json";

/**
 * Migrations as an explicit step (`npm run migrate`), processes that refuse to start while the
 * schema is behind (MIGRATE_ON_START=false), and `-- concurrently` statements run outside
 * drizzle's transaction — on databases of this file's own.
 */
const server = new URL(process.env.DATABASE_URL!);
const admin = postgres(server.toString(), { max: 1, onnotice: () => {} });
const made: string[] = [];
const folders: string[] = [];

async function freshDatabase(): Promise<string> {
  const name = `wa_mig_${Math.random().toString(36).slice(2, 10)}_${process.pid}`;
  await admin.unsafe(`create database ${name}`);
  made.push(name);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A drizzle migrations folder of our own: a journal and its files, numbered in order. */
function migrationsFolder(files: string[]): string {
  const dir = mkdtempSync(path.join(tmpdir(), "wa-migrations-"));
  folders.push(dir);
  mkdirSync(path.join(dir, "meta"));
  const entries = files.map((_, idx) => ({ idx, version: "7", when: 1_700_000_000_000 + idx, tag: `000${idx}_m${idx}`, breakpoints: true }));
  writeFileSync(path.join(dir, "meta", "_journal.json"), JSON.stringify({ version: "7", dialect: "postgresql", entries }));
  files.forEach((sql, idx) => writeFileSync(path.join(dir, `${entries[idx]!.tag}.sql`), sql));
  return dir;
}

const run = (script: string, args: string[], env: Record<string, string>) => runNode(script, args, { env });

const BP = "\n--> statement-breakpoint\n";
const TABLE = `CREATE TABLE "events" ("id" serial PRIMARY KEY, "kind" text NOT NULL);${BP}INSERT INTO "events" ("kind") SELECT 'k' || (i % 50) FROM generate_series(1, 20000) i;`;
const CONCURRENT = `ALTER TABLE "events" ADD COLUMN "note" text;${BP}-- concurrently\nCREATE INDEX CONCURRENTLY IF NOT EXISTS "events_kind_idx" ON "events" ("kind");`;

const indexState = async (sql: ReturnType<typeof createSql>) =>
  (await sql<{ valid: boolean }[]>`select i.indisvalid as valid from pg_index i join pg_class c on c.oid = i.indexrelid where c.relname = 'events_kind_idx'`)[0]?.valid;

let fresh: string;
beforeAll(async () => {
  fresh = await freshDatabase();
});
afterAll(async () => {
  for (const name of made) await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.end();
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

describe("MIGRATE_ON_START=false", () => {
  it("makes the worker and the web app refuse to start on a database behind the code, saying what to run", async () => {
    const env = { DATABASE_URL: fresh, MIGRATE_ON_START: "false" };
    await expect(spawnWorker(env)).rejects.toThrow(/worker exited early[^]*schema is behind this release of the worker[^]*npm run migrate/);
    const web = await run("scripts/start.ts", ["--only", "web"], env);
    expect(web.code).toBe(1);
    expect(web.output).toMatch(/schema is behind this release of the web app: \d+ migration step\(s\) pending \(0000_init, [^]*npm run migrate/);
    expect(await pendingMigrations(fresh)).toEqual(journal.entries.map((e) => e.tag));
  });
});

describe("npm run migrate", () => {
  it("applies every migration as its own step, says what it did, and then the processes start without migrating", async () => {
    const first = await run("scripts/migrate.ts", [], { DATABASE_URL: fresh });
    const tags = journal.entries.map((e) => e.tag);
    expect(first.output).toMatch(new RegExp(`^Applied ${tags.length} migration step\\(s\\) in [\\d.]+ s: ${tags.join(", ")}\\.\n$`));
    expect(first.code).toBe(0);
    const again = await run("scripts/migrate.ts", [], { DATABASE_URL: fresh });
    expect(again.output).toMatch(/^Database is up to date/);
    expect(await pendingMigrations(fresh)).toEqual([]);
    const worker = await spawnWorker({ DATABASE_URL: fresh, MIGRATE_ON_START: "false" });
    expect(await worker.kill()).toBe(0);
    // Two migrate processes and a worker start, each compiling TypeScript: over a minute on a loaded machine.
  }, 180_000);
});

describe("a process older than the database", () => {
  it("leaves the SQL functions as the newer release made them when it migrates on start", async () => {
    const url = await freshDatabase();
    await migrateDatabase(url);
    const sql = createSql(url, { max: 1 });
    const kind = async () => (await sql<{ k: number }[]>`select webhook_admin_queue_kind('scheduled') as k`)[0]!.k;
    try {
      // A newer release's migration and its body of a function (a release restarting mid-rollout sees both).
      const newest = Math.max(...journal.entries.map((e) => e.when));
      await sql`insert into drizzle.__drizzle_migrations (hash, created_at) values ('newer release', ${newest + 1000})`;
      await sql.unsafe(`CREATE OR REPLACE FUNCTION webhook_admin_queue_kind(p_name text) RETURNS smallint LANGUAGE sql IMMUTABLE AS $$ SELECT 7::smallint $$`);
      await migrateDatabase(url);
      expect(await kind()).toBe(7);
      expect(await pendingMigrations(url)).toEqual([]);
      // Its own database again (the newer migration gone): its functions are applied as always.
      await sql`delete from drizzle.__drizzle_migrations where hash = 'newer release'`;
      await migrateDatabase(url);
      expect(await kind()).toBe(0);
    } finally {
      await sql.end();
    }
  });
});

describe("-- concurrently", () => {
  it("builds a marked index outside drizzle's transaction, after the batch, and rebuilds one left INVALID", async () => {
    const url = await freshDatabase();
    const folder = migrationsFolder([TABLE, CONCURRENT]);
    await migrateDatabase(url, { migrationsFolder: folder });
    const sql = createSql(url, { max: 1 });
    try {
      expect(await indexState(sql)).toBe(true);
      expect((await sql`select count(*)::int as n from drizzle.__drizzle_migrations`)[0]!.n).toBe(2);
      // A build cut off by a crash leaves the index INVALID; the next migrate drops it and builds it again.
      await sql`update pg_index set indisvalid = false where indexrelid = 'events_kind_idx'::regclass`;
      expect(await pendingMigrations(url, { migrationsFolder: folder })).toEqual(["create index events_kind_idx (concurrently)"]);
      await migrateDatabase(url, { migrationsFolder: folder });
      expect(await indexState(sql)).toBe(true);
      expect(await pendingMigrations(url, { migrationsFolder: folder })).toEqual([]);
    } finally {
      await sql.end();
    }
  });

  it("builds a marked index before the later migrations of the same batch, which find it built", async () => {
    // As 0017 finds 0015's index on messages when an install two releases behind migrates: built in
    // 0017's transaction otherwise, under its lock on the table.
    const url = await freshDatabase();
    const folder = migrationsFolder([TABLE, CONCURRENT, `ALTER INDEX "events_kind_idx" SET (fillfactor = 80);`]);
    await migrateDatabase(url, { migrationsFolder: folder });
    const sql = createSql(url, { max: 1 });
    try {
      expect(await indexState(sql)).toBe(true);
      const [index] = await sql<{ options: string[] }[]>`select reloptions as options from pg_class where relname = 'events_kind_idx'`;
      expect(index!.options).toEqual(["fillfactor=80"]);
      expect((await sql`select count(*)::int as n from drizzle.__drizzle_migrations`)[0]!.n).toBe(3);
    } finally {
      await sql.end();
    }
  });

  it("lets processes migrating at once take turns without the index build and a waiting migrator deadlocking", async () => {
    const url = await freshDatabase();
    const folder = migrationsFolder([TABLE, CONCURRENT]);
    await Promise.all([1, 2, 3].map(() => migrateDatabase(url, { migrationsFolder: folder })));
    const sql = createSql(url, { max: 1 });
    try {
      expect(await indexState(sql)).toBe(true);
    } finally {
      await sql.end();
    }
  });

  it("refuses a marked statement that is not a re-runnable index statement, before touching the database", async () => {
    const url = await freshDatabase();
    const folder = migrationsFolder([TABLE, `-- concurrently\nCREATE INDEX CONCURRENTLY "events_kind_idx" ON "events" ("kind");`]);
    await expect(migrateDatabase(url, { migrationsFolder: folder })).rejects.toThrow(/must be CREATE \[UNIQUE\] INDEX CONCURRENTLY IF NOT EXISTS/);
    const sql = createSql(url, { max: 1 });
    try {
      expect((await sql`select to_regclass('events') as t`)[0]!.t).toBeNull();
    } finally {
      await sql.end();
    }
  });
});

describe("a deadlock with the writers of the release still serving", () => {
  it("runs the pending migrations again when PostgreSQL ends them for a deadlock", async () => {
    // As from 0.2.0: the batch alters "endpoints" (0015) and then renames "messages" (0017), while
    // the old release's ingest has written its message and goes on to check its delivery's endpoint.
    const url = await freshDatabase();
    const setup = migrationsFolder([`CREATE TABLE "endpoints" ("id" int PRIMARY KEY);${BP}CREATE TABLE "messages" ("id" int PRIMARY KEY);`]);
    await migrateDatabase(url, { migrationsFolder: setup });
    const folder = migrationsFolder([
      `CREATE TABLE "endpoints" ("id" int PRIMARY KEY);${BP}CREATE TABLE "messages" ("id" int PRIMARY KEY);`,
      `ALTER TABLE "endpoints" ADD COLUMN "uid" text;${BP}ALTER TABLE "messages" RENAME TO "messages_default";`,
    ]);
    const writer = createSql(url, { max: 1 });
    const watcher = createSql(url, { max: 1 });
    try {
      let migration: Promise<void> | null = null;
      await writer.begin(async (tx) => {
        // The victim is whichever side's deadlock check runs first: this side's is put off, so it
        // is the migration's, a second after it began waiting (PostgreSQL's default).
        await tx`set local deadlock_timeout = '20s'`;
        await tx`insert into messages (id) values (1)`;
        migration = migrateDatabase(url, { migrationsFolder: folder });
        // The migration holds "endpoints" and waits for "messages"; this writer then waits for
        // "endpoints": a deadlock, which PostgreSQL ends by ending the migration.
        for (;;) {
          const [waiting] = await watcher<{ n: number }[]>`
            select count(*)::int as n from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock' and query ilike '%rename to%'`;
          if (waiting!.n > 0) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await tx`lock table endpoints in row share mode`;
      });
      await migration;
      const [renamed] = await watcher<{ n: number }[]>`select count(*)::int as n from messages_default`;
      expect(renamed!.n).toBe(1);
      expect((await watcher`select 1 from information_schema.columns where table_name = 'endpoints' and column_name = 'uid'`).length).toBe(1);
    } finally {
      await writer.end();
      await watcher.end();
    }
  }, 30_000);
});

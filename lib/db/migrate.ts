import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import { runMigrations } from "graphile-worker";
import { fileURLToPath } from "node:url";
import { createSql } from "./client";
import { applySqlFunctions } from "./functions";

const MIGRATIONS = fileURLToPath(new URL("../../drizzle", import.meta.url));
// Any fixed number: web and worker processes starting together take turns migrating.
const MIGRATION_LOCK = 727_001;

/** Brings the app schema (drizzle/), graphile-worker's own schema and our SQL functions up to date. Idempotent. */
export async function migrateDatabase(url: string): Promise<void> {
  const sql = createSql(url, { max: 1, name: "webhook-admin-migrate" });
  try {
    // One connection (max: 1), so the session lock covers both migrators' work.
    await sql`select pg_advisory_lock(${MIGRATION_LOCK})`;
    await migrate(drizzle(sql), { migrationsFolder: MIGRATIONS });
    await runMigrations({ connectionString: url });
    await applySqlFunctions(sql);
    await sql`select pg_advisory_unlock(${MIGRATION_LOCK})`;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

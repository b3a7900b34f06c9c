/**
 * `npm run migrate`: applies every pending migration (drizzle/, graphile-worker's schema, the SQL
 * functions, and any `-- concurrently` index statements) as an explicit release step, then says
 * what it applied. Against DATABASE_URL, else the embedded database under .data/ (like the CLI).
 * Safe to run while web and worker processes run: processes take turns on one advisory lock.
 */
import { migrateDatabase, pendingMigrations } from "../lib/db/migrate";
import { resolveDatabase } from "../lib/runtime/database";

async function main(): Promise<string> {
  const database = await resolveDatabase({ share: true });
  try {
    const before = await pendingMigrations(database.url);
    const started = performance.now();
    await migrateDatabase(database.url);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    return before.length === 0
      ? `Database is up to date (graphile-worker's schema and the SQL functions checked, ${seconds} s).`
      : `Applied ${before.length} migration step(s) in ${seconds} s: ${before.join(", ")}.`;
  } finally {
    await database.stop();
  }
}

main().then(
  (line) => {
    console.log(line);
    process.exit(0);
  },
  (error: unknown) => {
    console.error(`Migration failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);

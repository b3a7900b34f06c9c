import journal from "../../drizzle/meta/_journal.json";
import type { SqlOrTx } from "./client";

export type SchemaStatus = {
  /** The migrations this code was built with (drizzle/meta/_journal.json) that the database has not applied, oldest first. */
  pending: string[];
  /** The database has a migration newer than any of this code's: a newer release migrated it. */
  ahead: boolean;
};

/**
 * Compares the migrations journal with drizzle's table of applied migrations: drizzle's migrator
 * applies every journal entry whose `when` is after the newest `created_at` it recorded, so that
 * comparison is exactly "what `npm run migrate` would apply". A database migrated by a newer
 * release (ahead of this code) has nothing pending: expand/contract keeps it readable.
 */
export async function readSchemaStatus(sql: SqlOrTx, entries: { tag: string; when: number }[] = journal.entries): Promise<SchemaStatus> {
  const [exists] = await sql<{ present: boolean }[]>`select to_regclass('drizzle.__drizzle_migrations') is not null as present`;
  let last = -Infinity;
  if (exists?.present) {
    const [row] = await sql<{ last: string | null }[]>`select max(created_at)::text as last from drizzle.__drizzle_migrations`;
    if (row?.last) last = Number(row.last);
  }
  return {
    pending: entries.filter((entry) => entry.when > last).map((entry) => entry.tag),
    ahead: entries.length > 0 && last > Math.max(...entries.map((entry) => entry.when)),
  };
}

import { and, sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { decodeCursor, type Cursor, type PageQuery } from "../pagination";
import type { Executor } from "./client";

/** Rows strictly after the cursor in newest-first order: `(created_at, id) < (cursor)`. */
export function keysetBefore(createdAt: AnyColumn, id: AnyColumn, cursor: Cursor): SQL {
  return sql`(${createdAt}, ${id}) < (${cursor.createdAt.toISOString()}::timestamptz, ${cursor.id})`;
}

/**
 * Newest first, as every keyset index is built: drizzle writes `.desc()` index columns as
 * `DESC NULLS LAST`, and Postgres uses an index for an ORDER BY only when the null order matches
 * too (it does not take NOT NULL into account). A plain `desc()` (NULLS FIRST) sorted the whole
 * table for every page instead (docs/benchmarks.md#g-log-queries-at-scale; the plans are in
 * bench/results/2026-12-01-g-log-queries.md).
 */
export function newestFirst(createdAt: AnyColumn, id: AnyColumn): SQL[] {
  return [sql`${createdAt} desc nulls last`, sql`${id} desc nulls last`];
}

type KeysetTable = PgTable & { createdAt: AnyColumn; id: AnyColumn };

/**
 * A public list's rows: `table`'s rows that match every filter, newest first, after the query's
 * cursor, `limit + 1` of them (the extra one tells toPage whether another page exists).
 */
export async function selectPage<T extends KeysetTable>(db: Executor, table: T, query: PageQuery, filters: (SQL | undefined)[] = []): Promise<T["$inferSelect"][]> {
  const cursor = decodeCursor(query.cursor);
  return (await db
    .select()
    .from(table as PgTable)
    .where(and(cursor ? keysetBefore(table.createdAt, table.id, cursor) : undefined, ...filters))
    .orderBy(...newestFirst(table.createdAt, table.id))
    .limit(query.limit + 1)) as T["$inferSelect"][];
}

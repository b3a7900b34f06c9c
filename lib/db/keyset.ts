import { sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { Cursor } from "../pagination";

/** Rows strictly after the cursor in newest-first order: `(created_at, id) < (cursor)`. */
export function keysetBefore(createdAt: AnyColumn, id: AnyColumn, cursor: Cursor): SQL {
  return sql`(${createdAt}, ${id}) < (${cursor.createdAt.toISOString()}::timestamptz, ${cursor.id})`;
}

/**
 * Newest first, as every keyset index is built: drizzle writes `.desc()` index columns as
 * `DESC NULLS LAST`, and Postgres uses an index for an ORDER BY only when the null order matches
 * too (it does not take NOT NULL into account). A plain `desc()` (NULLS FIRST) sorted the whole
 * table instead: 0.4–0.7 s for a page of 2 million messages (docs/benchmarks.md, part g).
 */
export function newestFirst(createdAt: AnyColumn, id: AnyColumn): SQL[] {
  return [sql`${createdAt} desc nulls last`, sql`${id} desc nulls last`];
}

import { sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { Cursor } from "../pagination";

/** Rows strictly after the cursor in newest-first order: `(created_at, id) < (cursor)`. */
export function keysetBefore(createdAt: AnyColumn, id: AnyColumn, cursor: Cursor): SQL {
  return sql`(${createdAt}, ${id}) < (${cursor.createdAt.toISOString()}::timestamptz, ${cursor.id})`;
}

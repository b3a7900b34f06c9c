/** Rows removed, per table: what a sweep or an erasure reports and records. */
export type Counts = Record<string, number>;

/** Adds `more` into `into` (tables with nothing removed are left out) and returns `into`. */
export function addCounts(into: Counts, more: Counts): Counts {
  for (const [table, n] of Object.entries(more)) if (n > 0) into[table] = (into[table] ?? 0) + n;
  return into;
}

/** The sum of every table's rows. */
export function totalRows(counts: Counts): number {
  return Object.values(counts).reduce((sum, n) => sum + n, 0);
}

import type { SqlOrTx } from "./client";

/**
 * Every table of the app's schema by its rows, a partitioned table counted through its parent (its
 * partitions are not listed): what an upgrade must keep, compared before and after it (the upgrade
 * suites and bench/upgrade.ts). A count of each table: minutes on a large database.
 */
export async function countRows(sql: SqlOrTx): Promise<Record<string, number>> {
  const tables = await sql<{ name: string }[]>`
    select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition order by 1`;
  const counts: Record<string, number> = {};
  for (const { name } of tables) counts[name] = (await sql<{ n: number }[]>`select count(*)::int as n from ${sql(name)}`)[0]!.n;
  return counts;
}

import type { Sql } from "../lib/db/client";

/**
 * Samples pg_stat_activity every `intervalMs` while a phase runs and tallies what the active
 * sessions of the bench database were doing: a wait event (e.g. Lock:transactionid, IO:WALSync)
 * or "CPU" when not waiting. Shows where Postgres time goes without any extension.
 */
export function sampleWaits(sql: Sql, intervalMs = 100) {
  const tally = new Map<string, { count: number; queries: Map<string, number> }>();
  let samples = 0;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const rows = await sql<{ wait: string; query: string }[]>`
        select coalesce(wait_event_type || ':' || wait_event, 'CPU') as wait, left(regexp_replace(query, '\\s+', ' ', 'g'), 60) as query
        from pg_stat_activity
        where state = 'active' and datname = current_database() and pid <> pg_backend_pid()`.catch(() => []);
      samples += 1;
      for (const row of rows) {
        const entry = tally.get(row.wait) ?? { count: 0, queries: new Map<string, number>() };
        entry.count += 1;
        entry.queries.set(row.query, (entry.queries.get(row.query) ?? 0) + 1);
        tally.set(row.wait, entry);
      }
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  })();

  /** Stops sampling; returns lines like `Lock:transactionid  6.1 sessions  (select graphile_worker.add_job…)`. */
  return async (top = 4): Promise<string[]> => {
    stopped = true;
    await loop;
    return [...tally.entries()]
      .sort((a, b) => b[1].count - a[1].count)
      .slice(0, top)
      .map(([wait, entry]) => {
        const [query] = [...entry.queries.entries()].sort((a, b) => b[1] - a[1])[0] ?? [""];
        return `${wait.padEnd(24)} ${(entry.count / Math.max(1, samples)).toFixed(1).padStart(5)} sessions on average, mostly: ${query}`;
      });
  };
}

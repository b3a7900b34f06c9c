import type { Ctx } from "../context";
import type { ErasureState } from "../db/schema";
import { formatDuration } from "../duration";
import { NotFoundError } from "../errors";
import type { DataLifecycle, Erasure } from "./schemas";

/** An erasure as lib/retention reads it; toErasure makes it the API's shape. */
export type ErasureRecord = {
  id: string;
  consumer_id: string;
  state: ErasureState;
  messages_total: number;
  counts: Record<string, number>;
  started_at: Date;
  finished_at: Date | null;
};

export const ERASURE_COLUMNS = "id, consumer_id, state, messages_total, counts, started_at, finished_at";

export function toErasure(row: ErasureRecord): Erasure {
  const erased = row.counts.messages ?? 0;
  return {
    id: row.id,
    consumer_id: row.consumer_id,
    state: row.state,
    counts: row.counts,
    // A background erasure counts its messages as it begins; until then (and for messages that
    // came in as it began) the whole is at least what is erased.
    progress: { messages_total: Math.max(row.messages_total, erased), messages_erased: erased },
    started_at: row.started_at.toISOString(),
    finished_at: row.finished_at?.toISOString() ?? null,
  };
}

/** GET /erasures/{id}. */
export async function getErasure(ctx: Ctx, id: string): Promise<Erasure> {
  const [row] = await ctx.sql<ErasureRecord[]>`select ${ctx.sql.unsafe(ERASURE_COLUMNS)} from erasures where id = ${id}`;
  if (!row) throw new NotFoundError("erasure", id);
  return toErasure(row);
}

/** Sweeps and finished erasures the page lists. */
const SWEEPS_SHOWN = 20;
const FINISHED_ERASURES_SHOWN = 5;

/**
 * GET /data-lifecycle: the retention settings in force, the database's size and its ten largest
 * tables (with indexes and TOAST), the oldest message kept, the last sweeps' work, and erasures
 * running (with the last few finished). Every figure is read from the catalog or an index: cheap
 * on any size of database.
 */
export async function getDataLifecycle(ctx: Ctx): Promise<DataLifecycle> {
  const { sql, config } = ctx;
  const durations = ["RETENTION_PERIOD", "SWEEP_INTERVAL", "STATS_RETENTION", "STATS_MINUTE_RETENTION", "AUDIT_RETENTION"] as const;
  const settings = [
    ...durations.map((key) => ({ key, value: formatDuration(config[key]), ms: config[key] })),
    { key: "ERASURE_INLINE_MESSAGES", value: String(config.ERASURE_INLINE_MESSAGES), ms: null },
  ];
  const [size, tables, oldest, sweeps, erasures] = await Promise.all([
    sql<{ bytes: number }[]>`select pg_database_size(current_database())::float8 as bytes`,
    // A partitioned table (time partitions, ADR 0034) counts as the sum of its partitions, which
    // are not listed on their own.
    sql<{ name: string; bytes: number; rows_estimate: number | null }[]>`
      select name, bytes, rows_estimate from (
        select c.relname as name,
               coalesce((select sum(pg_total_relation_size(t.relid)) from pg_partition_tree(c.oid) t where t.isleaf and c.relkind = 'p'),
                        pg_total_relation_size(c.oid))::float8 as bytes,
               case when c.relkind = 'p'
                    then (select sum(greatest(p.reltuples, 0)) from pg_partition_tree(c.oid) t join pg_class p on p.oid = t.relid where t.isleaf)
                    when c.reltuples >= 0 then c.reltuples end::float8 as rows_estimate
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = current_schema() and c.relkind in ('r', 'p') and not c.relispartition) t
      order by bytes desc, name limit 10`,
    sql<{ at: Date | null }[]>`select min(created_at) as at from messages`,
    sql<{ started_at: Date; finished_at: Date; duration_ms: number; removed: Record<string, number>; more: boolean; error: string | null }[]>`
      select started_at, finished_at, duration_ms, removed, more, error from sweep_runs order by id desc limit ${SWEEPS_SHOWN}`,
    sql<ErasureRecord[]>`
      (select ${sql.unsafe(ERASURE_COLUMNS)} from erasures where state = 'running')
      union all
      (select ${sql.unsafe(ERASURE_COLUMNS)} from erasures where state = 'completed' order by finished_at desc limit ${FINISHED_ERASURES_SHOWN})`,
  ]);
  return {
    settings,
    database: { bytes: size[0]!.bytes, tables: tables.map((t) => ({ name: t.name, bytes: t.bytes, rows_estimate: t.rows_estimate })) },
    oldest_message_at: oldest[0]?.at?.toISOString() ?? null,
    sweeps: sweeps.map((s) => ({
      started_at: s.started_at.toISOString(),
      finished_at: s.finished_at.toISOString(),
      duration_ms: s.duration_ms,
      removed: s.removed,
      more: s.more,
      error: s.error,
    })),
    erasures: erasures.sort((a, b) => b.started_at.getTime() - a.started_at.getTime()).map(toErasure),
  };
}

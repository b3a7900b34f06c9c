import { z } from "zod";
import { IsoDate, Text } from "../schemas";

export const STAT_BUCKETS = ["minute", "hour", "day"] as const;
export type StatBucket = (typeof STAT_BUCKETS)[number];

export const BUCKET_MS: Record<StatBucket, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 };

/** A chart's worth: 25 h by the minute, 62 days by the hour, four years by the day. */
export const MAX_BUCKETS = 1500;

export const StatsQuery = z.object({
  since: IsoDate.optional(),
  until: IsoDate.optional(),
  consumer: Text.min(1).max(256).optional(),
  endpoint_id: Text.min(1).max(64).optional(),
  bucket: z.enum(STAT_BUCKETS).optional(),
});
export type StatsQuery = z.infer<typeof StatsQuery>;

export const StatsBucket = z.object({
  /** The bucket's start, UTC. */
  t: z.string(),
  attempts: z.number(),
  succeeded: z.number(),
  failed: z.number(),
  p50_ms: z.number().nullable(),
  p99_ms: z.number().nullable(),
});

export const StatsSeries = z.object({
  bucket: z.enum(STAT_BUCKETS),
  /** The first bucket's start: `since` taken back to its bucket's start. */
  since: z.string(),
  /** The end of the last bucket (exclusive). */
  until: z.string(),
  data: z.array(StatsBucket),
});
export type StatsSeries = z.infer<typeof StatsSeries>;
export type StatsPoint = StatsSeries["data"][number];

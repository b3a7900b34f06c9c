/**
 * The charts' time grid, kept apart from React so it can be tested: which buckets a range spans,
 * the series filled onto them, and where the time axis puts its ticks in the viewer's zone.
 */
import type { StatBucket, StatsPoint } from "@/lib/stats/schemas";

export type { StatBucket, StatsPoint, StatsSeries } from "@/lib/stats/schemas";

/** One bucket of a filled series, with its start as epoch ms and its success rate (null without attempts). */
export type ChartPoint = StatsPoint & { ms: number; rate: number | null };

// lib/stats/schemas.ts's BUCKET_MS, restated: that module brings zod, and only its types come to the browser.
export const BUCKET_MS: Record<StatBucket, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 };

export const STATS_RANGES = ["hour", "day", "week"] as const;
export type StatsRange = (typeof STATS_RANGES)[number];

/**
 * Week by the hour, not the day: the API's day buckets are UTC days, which would split a viewer's
 * day in two anywhere but UTC.
 */
export const RANGE: Record<StatsRange, { spanMs: number; bucket: StatBucket }> = {
  hour: { spanMs: 3_600_000, bucket: "minute" },
  day: { spanMs: 86_400_000, bucket: "hour" },
  week: { spanMs: 7 * 86_400_000, bucket: "hour" },
};

/**
 * The window a range covers when asked at `now`: from the first bucket that starts within the
 * span to now, so all that a chart counts did happen "in the last hour" (or day, or week).
 */
export function rangeWindow(range: StatsRange, now: number): { since: Date; until: Date; bucket: StatBucket } {
  const { spanMs, bucket } = RANGE[range];
  const step = BUCKET_MS[bucket];
  return { since: new Date(Math.ceil((now - spanMs) / step) * step), until: new Date(now), bucket };
}

/**
 * Every bucket from since's to until's (exclusive, rounded up, as the API rounds), whether or not
 * the answer held it: a quiet bucket is zero attempts and no latency, so the volume chart shows a
 * gap in time rather than closing it up.
 */
export function fillSeries(points: readonly StatsPoint[], window: { since: Date; until: Date; bucket: StatBucket }): ChartPoint[] {
  const step = BUCKET_MS[window.bucket];
  const from = Math.floor(window.since.getTime() / step) * step;
  const to = Math.ceil(window.until.getTime() / step) * step;
  const byStart = new Map<number, StatsPoint>();
  for (const p of points) {
    const ms = new Date(p.t).getTime();
    if (ms % step === 0) byStart.set(ms, p);
  }
  const out: ChartPoint[] = [];
  for (let ms = from; ms < to; ms += step) {
    const p = byStart.get(ms);
    const point = p ?? { t: new Date(ms).toISOString(), attempts: 0, succeeded: 0, failed: 0, p50_ms: null, p99_ms: null };
    out.push({ ...point, ms, rate: point.attempts > 0 ? point.succeeded / point.attempts : null });
  }
  return out;
}

export type SeriesTotals = { attempts: number; succeeded: number; failed: number; rate: number | null };

export function totals(points: readonly StatsPoint[]): SeriesTotals {
  let attempts = 0;
  let succeeded = 0;
  let failed = 0;
  for (const p of points) {
    attempts += p.attempts;
    succeeded += p.succeeded;
    failed += p.failed;
  }
  return { attempts, succeeded, failed, rate: attempts > 0 ? succeeded / attempts : null };
}

/** Ticks on round local times, so labels neither crowd nor fall on odd minutes: 15 min, 6 h or midnight apart. */
export function axisTicks(points: readonly ChartPoint[], range: StatsRange, timeZone: string): number[] {
  const parts = new Intl.DateTimeFormat("en-US", { timeZone, hour: "numeric", minute: "numeric", hourCycle: "h23" });
  return points
    .filter((p) => {
      const got = Object.fromEntries(parts.formatToParts(new Date(p.ms)).map((x) => [x.type, Number(x.value)]));
      const hour = got.hour ?? 0;
      const minute = got.minute ?? 0;
      if (range === "hour") return minute % 15 === 0;
      // Hour buckets start on the UTC hour; a zone half an hour off never sees minute 0, so only the hour counts.
      if (range === "day") return hour % 6 === 0;
      return hour === 0;
    })
    .map((p) => p.ms);
}

import { describe, expect, it } from "vitest";
import { getStats } from "../../lib/stats/queries";
import { axisTicks, fillSeries, rangeWindow, totals, type StatsPoint } from "../../components/shared/stats-series";
import { systemCtx } from "../../lib/open-ctx";

const point = (t: string, attempts: number, failed: number, p50: number | null = 100): StatsPoint => ({
  t,
  attempts,
  succeeded: attempts - failed,
  failed,
  p50_ms: p50,
  p99_ms: p50 === null ? null : p50 * 4,
});

describe("the charts' series", () => {
  it("fills every bucket from since's to until's, as zeros where the answer had none, keeping what it had", () => {
    const window = { since: new Date("2026-03-01T10:00:30Z"), until: new Date("2026-03-01T11:00:30Z"), bucket: "minute" as const };
    const filled = fillSeries([point("2026-03-01T10:05:00.000Z", 10, 2), point("2026-03-01T11:00:00.000Z", 4, 0)], window);
    // 10:00 through 11:00: since goes back to its minute, until (exclusive) on to the end of its.
    expect(filled).toHaveLength(61);
    expect(filled[0]).toEqual({ t: "2026-03-01T10:00:00.000Z", ms: Date.parse("2026-03-01T10:00:00Z"), attempts: 0, succeeded: 0, failed: 0, p50_ms: null, p99_ms: null, rate: null });
    expect(filled[5]).toMatchObject({ t: "2026-03-01T10:05:00.000Z", attempts: 10, failed: 2, rate: 0.8, p50_ms: 100 });
    expect(filled[60]).toMatchObject({ t: "2026-03-01T11:00:00.000Z", attempts: 4, rate: 1 });
    expect(filled.filter((p) => p.attempts > 0)).toHaveLength(2);
    for (let i = 1; i < filled.length; i++) expect(filled[i]!.ms - filled[i - 1]!.ms).toBe(60_000);
    expect(totals(filled)).toEqual({ attempts: 14, succeeded: 12, failed: 2, rate: 12 / 14 });
    expect(totals(fillSeries([], window))).toEqual({ attempts: 0, succeeded: 0, failed: 0, rate: null });
  });

  it("lays the same grid as GET /stats for each range", async () => {
    const ctx = systemCtx();
    const now = Date.parse("2026-03-01T10:17:42.123Z");
    for (const range of ["hour", "day", "week"] as const) {
      const window = rangeWindow(range, now);
      const served = await getStats(ctx, window);
      expect(served.bucket).toBe(window.bucket);
      const filled = fillSeries([], window);
      expect(filled.map((p) => p.t)).toEqual(served.data.map((p) => p.t));
      expect(fillSeries(served.data, window).map(({ ms: _ms, rate: _rate, ...p }) => p)).toEqual(served.data);
    }
    // The first bucket starts within the span; the last is the current one.
    expect(fillSeries([], rangeWindow("hour", now))).toHaveLength(60);
    expect(fillSeries([], rangeWindow("hour", now))[0]!.t).toBe("2026-03-01T09:18:00.000Z");
    expect(fillSeries([], rangeWindow("week", now))).toHaveLength(168);
  });

  it("puts the time axis' ticks on round times in the viewer's zone, a zone half an hour off included", () => {
    const now = Date.parse("2026-03-01T10:17:42Z");
    const local = (ms: number, timeZone: string) => new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit" }).format(ms);

    const hour = fillSeries([], rangeWindow("hour", now));
    expect(axisTicks(hour, "hour", "Asia/Kolkata").map((ms) => local(ms, "Asia/Kolkata"))).toEqual(["15:00", "15:15", "15:30", "15:45"]);

    const day = fillSeries([], rangeWindow("day", now));
    const tokyo = axisTicks(day, "day", "Asia/Tokyo").map((ms) => local(ms, "Asia/Tokyo"));
    expect(tokyo).toEqual(["00:00", "06:00", "12:00", "18:00"]);
    // Hour buckets start at half past in Kolkata: the ticks still fall every six hours.
    expect(axisTicks(day, "day", "Asia/Kolkata").map((ms) => local(ms, "Asia/Kolkata"))).toEqual(["18:30", "00:30", "06:30", "12:30"]);

    const week = axisTicks(fillSeries([], rangeWindow("week", now)), "week", "America/New_York");
    expect(week.map((ms) => local(ms, "America/New_York"))).toEqual(Array(7).fill("00:00"));
  });
});

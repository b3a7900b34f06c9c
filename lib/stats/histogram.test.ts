import { describe, expect, it } from "vitest";
import { BUCKET_COUNT, bucketLow, bucketOf, bucketWidth, percentile, type Histogram } from "./histogram";

function histogramOf(values: number[]): Histogram {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(bucketOf(v), (counts.get(bucketOf(v)) ?? 0) + 1);
  const buckets = [...counts.keys()].sort((a, b) => a - b);
  return { buckets, counts: buckets.map((b) => counts.get(b)!) };
}

// PostgreSQL's percentile_cont over the exact values.
function percentileCont(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = p * (sorted.length - 1);
  const lo = sorted[Math.floor(rank)]!;
  const hi = sorted[Math.ceil(rank)]!;
  return lo + (rank - Math.floor(rank)) * (hi - lo);
}

describe("latency histogram", () => {
  it("tiles every millisecond up to the top bucket, in order, each value in exactly one bucket", () => {
    let previous = -1;
    for (let ms = 0; ms < 2 ** 21; ms++) {
      const b = bucketOf(ms);
      if (b !== previous) {
        expect(b).toBe(previous + 1);
        expect(bucketLow(b)).toBe(ms);
        if (previous >= 0) expect(bucketLow(previous) + bucketWidth(previous)).toBe(ms);
        previous = b;
      }
    }
    expect(previous).toBe(BUCKET_COUNT - 1);
    expect(bucketOf(10 ** 9)).toBe(BUCKET_COUNT - 1);
    expect(bucketOf(-5)).toBe(0);
  });

  it("keeps every bucket within 1/16 of its lower bound wide above the exact range", () => {
    for (let b = 32; b < BUCKET_COUNT; b++) expect(bucketWidth(b) / bucketLow(b)).toBeLessThanOrEqual(1 / 16);
  });

  it("reads p50 and p99 back within 3.2 % (or half a millisecond) of percentile_cont", () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const shapes: (() => number)[] = [
      () => Math.floor(1 + random() * 8), // loopback
      () => Math.floor(Math.exp(3 + random() * 4)), // log-uniform 20 ms – 1 s
      () => (random() < 0.97 ? Math.floor(40 + random() * 30) : 15_000), // mostly fast, some timeouts
    ];
    for (const shape of shapes) {
      for (const n of [1, 2, 7, 100, 5000]) {
        const values = Array.from({ length: n }, shape);
        const h = histogramOf(values);
        for (const p of [0.5, 0.99]) {
          const exact = percentileCont(values, p);
          expect(Math.abs(percentile(h, p)! - exact)).toBeLessThanOrEqual(Math.max(0.5, exact * 0.032));
        }
      }
    }
    expect(percentile({ buckets: [], counts: [] }, 0.5)).toBeNull();
  });
});

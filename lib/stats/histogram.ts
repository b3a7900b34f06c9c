/**
 * The rollup's latency histogram: 288 fixed buckets over whole milliseconds, log-spaced.
 *
 *   0–31 ms      one bucket per millisecond (attempt durations are whole ms, so these are exact);
 *   32 ms up     16 buckets per doubling (32–33, 34–35, … 62–63, 64–67, …), each 1/16 to 1/31 of
 *                its lower bound wide, so a bucket's midpoint is within 3.2 % of any value in it;
 *   ≥ 2^21 ms    (35 min, far past any delivery timeout) all fall into the last bucket.
 *
 * Why these: p50/p99 must read back within a few percent of the exact percentiles, on latencies
 * from a 1 ms loopback answer to a 15 s timeout. Equal-width buckets would need thousands for that
 * range; sixteen per doubling (HdrHistogram's layout with 4 bits of sub-bucket) keep the relative
 * error constant, and storing only the buckets that hold attempts keeps a row to a few entries.
 *
 * The writer assigns buckets in SQL, with webhook_admin_latency_bucket (created by the migration
 * that made the rollup, and never changed: stored histograms depend on it); bucketOf below is the
 * same function, and tests/stats/stats.test.ts checks the two agree on every bucket boundary.
 */

export const BUCKET_COUNT = 288;
const EXACT = 32;
const SUB_BUCKETS = 16;
const MAX_MS = 2 ** 21 - 1;

export function bucketOf(ms: number): number {
  const v = Math.min(Math.max(Math.floor(ms), 0), MAX_MS);
  if (v < EXACT) return v;
  const e = 31 - Math.clz32(v); // floor(log2 v), 5..20
  return EXACT + (e - 5) * SUB_BUCKETS + ((v >> (e - 4)) - SUB_BUCKETS);
}

// Above the exact range, bucket i lies in the doubling [2^e, 2^(e+1)) and is 2^(e-4) ms wide.
const exponent = (i: number) => 5 + Math.floor((i - EXACT) / SUB_BUCKETS);

/** The smallest duration (ms) bucket `i` holds. */
export function bucketLow(i: number): number {
  if (i < EXACT) return i;
  return (SUB_BUCKETS + ((i - EXACT) % SUB_BUCKETS)) << (exponent(i) - 4);
}

/** How many whole milliseconds bucket `i` holds. */
export function bucketWidth(i: number): number {
  return i < EXACT ? 1 : 1 << (exponent(i) - 4);
}

/** The value reported for a bucket: the middle of the durations it holds. */
function bucketValue(i: number): number {
  return bucketLow(i) + (bucketWidth(i) - 1) / 2;
}

/** A histogram as stored: ascending bucket numbers and their counts. */
export type Histogram = { buckets: number[]; counts: number[] };

/**
 * The p-quantile (0–1) in the manner of PostgreSQL's percentile_cont — the values at the two ranks
 * around p·(n−1), interpolated — with each value read as its bucket's middle; null when empty.
 */
export function percentile(h: Histogram, p: number): number | null {
  const total = h.counts.reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const rank = p * (total - 1);
  const lower = valueAtRank(h, Math.floor(rank));
  const upper = valueAtRank(h, Math.ceil(rank));
  return lower + (rank - Math.floor(rank)) * (upper - lower);
}

function valueAtRank(h: Histogram, rank: number): number {
  let seen = 0;
  for (let j = 0; j < h.buckets.length; j++) {
    seen += h.counts[j]!;
    if (seen > rank) return bucketValue(h.buckets[j]!);
  }
  return bucketValue(h.buckets[h.buckets.length - 1]!);
}

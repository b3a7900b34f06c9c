/** Small numeric and formatting helpers for the benchmark's printout. */

/** The p-th percentile (0–100) of `values`, nearest-rank; NaN for an empty list. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1]!;
}

export type Summary = { count: number; p50: number; p99: number; max: number; mean: number };

export function summarize(values: number[]): Summary {
  const mean = values.length ? values.reduce((a, b) => a + b, 0) / values.length : Number.NaN;
  return { count: values.length, p50: percentile(values, 50), p99: percentile(values, 99), max: Math.max(...values), mean };
}

/** 12,345 */
export const int = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString("en-US") : "n/a");

/** 12.3 ms */
export const ms = (n: number) => (Number.isFinite(n) ? `${n < 10 ? n.toFixed(1) : Math.round(n)} ms` : "n/a");

/** 1,234/s */
export const rate = (count: number, elapsedMs: number) => `${int(count / (elapsedMs / 1000))}/s`;

export const seconds = (elapsedMs: number) => `${(elapsedMs / 1000).toFixed(1)} s`;

/** A plain-text table: first row is the header. */
export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((row) => (row[col] ?? "").length)));
  const line = (row: string[]) => row.map((cell, col) => cell.padEnd(widths[col]!)).join("  ").trimEnd();
  return [line(rows[0]!), widths.map((w) => "-".repeat(w)).join("  "), ...rows.slice(1).map(line)].join("\n");
}

export const sleep = (msToWait: number) => new Promise<void>((resolve) => setTimeout(resolve, msToWait));

/** Calls `line()` every `intervalMs` and prints what it returns; returns a function that stops it. */
export function every(intervalMs: number, line: () => string | Promise<string>): () => void {
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    Promise.resolve(line())
      .then((text) => console.log(text))
      .catch(() => {})
      .finally(() => (busy = false));
  }, intervalMs);
  return () => clearInterval(timer);
}

/** The middle value (the upper of the two middle ones for an even count). */
export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * Parses `250ms`, `5s`, `5m`, `2h`, `5d` (a bare number means milliseconds) into milliseconds.
 * Returns null for anything else so callers can name the offending setting.
 */
export function parseDuration(text: string): number | null {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(text);
  if (!match) return null;
  const value = Number(match[1]) * UNITS[match[2] ?? "ms"]!;
  return Number.isFinite(value) ? Math.round(value) : null;
}

export function formatDuration(ms: number): string {
  for (const [unit, size] of [["d", 86_400_000], ["h", 3_600_000], ["m", 60_000], ["s", 1_000]] as const) {
    if (ms >= size && ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}

export type ReadableDuration = { value: number; unit: "millisecond" | "second" | "minute" | "hour" | "day" };

/**
 * A measured time in the largest unit it fills, for a reader (Intl.NumberFormat's unit names):
 * 850 ms, 4.2 s, 12 min, 3.5 h — a polling endpoint's messages may wait hours, and 12,600,000 ms
 * reads as nothing.
 */
export function readableDuration(ms: number): ReadableDuration {
  for (const [unit, size] of [["day", 86_400_000], ["hour", 3_600_000], ["minute", 60_000], ["second", 1_000]] as const) {
    if (ms >= size) return { value: ms / size, unit };
  }
  return { value: ms, unit: "millisecond" };
}

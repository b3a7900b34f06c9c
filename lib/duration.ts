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

import { spawnSync } from "node:child_process";

/** promtool (Debian's `prometheus` package), or null when this machine has none. */
export function promtoolPath(): string | null {
  const found = spawnSync("sh", ["-c", "command -v promtool"], { encoding: "utf8" });
  return found.status === 0 ? found.stdout.trim() : null;
}

// prom-client's default gauges named *_total (active handles, requests, resources): promtool's
// lint says a gauge should not end in _total. They are prom-client's names, kept as dashboards know them.
const DEFAULT_METRIC_LINT = /^webhook_admin_nodejs_active_(handles|requests|resources)_total non-counter metrics should not have "_total" suffix$/;

/**
 * Runs `promtool check metrics` on an exposition: it must parse (exit 1 is a parse error), and
 * its lint must find nothing but prom-client's own default-metric names. Returns promtool's output.
 */
export function promtoolCheckMetrics(promtool: string, text: string): { status: number | null; problems: string[] } {
  const run = spawnSync(promtool, ["check", "metrics"], { input: text, encoding: "utf8" });
  const problems = `${run.stdout}\n${run.stderr}`
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !DEFAULT_METRIC_LINT.test(line));
  return { status: run.status, problems };
}

export type Sample = { name: string; labels: Record<string, string>; value: number };

/** The exposition's families (`# TYPE` lines) and samples, once promtool has said it parses. */
export function readExposition(text: string): { families: Map<string, string>; samples: Sample[] } {
  const families = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) families.set(type[1]!, type[2]!);
    if (!line || line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)/.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[pair[1]!] = pair[2]!;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return { families, samples };
}

/** The sum of a series' samples whose labels include `labels`. */
export function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { promtoolPath } from "../helpers/prometheus";

/**
 * deploy/prometheus: the alerting rules pass `promtool check rules`, fire as their unit tests say
 * (`promtool test rules`), and the example scrape configuration passes `promtool check config`.
 * promtool comes from Debian's `prometheus` package, which .ci/run installs.
 */
const promtool = promtoolPath();
const DIR = path.resolve("deploy/prometheus");

function promtoolRun(args: string[]) {
  const run = spawnSync(promtool!, args, { encoding: "utf8" });
  return { status: run.status, output: `${run.stdout}\n${run.stderr}` };
}

describe.skipIf(!promtool)("deploy/prometheus (promtool)", () => {
  it("alerts.yml passes promtool check rules", () => {
    const run = promtoolRun(["check", "rules", path.join(DIR, "alerts.yml")]);
    expect(run.output).toMatch(/SUCCESS: \d+ rules found/);
    expect(run.status, run.output).toBe(0);
  });

  it("every alert fires as alerts.test.yml expects (promtool test rules)", () => {
    const rules = readFileSync(path.join(DIR, "alerts.yml"), "utf8");
    const tests = readFileSync(path.join(DIR, "alerts.test.yml"), "utf8");
    const names = [...rules.matchAll(/- alert: (\w+)/g)].map((m) => m[1]!);
    expect(names.length).toBeGreaterThanOrEqual(5);
    for (const name of names) expect(tests, `${name} has a unit test`).toContain(`alertname: ${name}`);
    const run = promtoolRun(["test", "rules", path.join(DIR, "alerts.test.yml")]);
    expect(run.status, run.output).toBe(0);
  });

  it("prometheus.yml passes promtool check config", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "wa-prometheus-"));
    try {
      const token = path.join(dir, "token");
      writeFileSync(token, "x".repeat(32));
      copyFileSync(path.join(DIR, "alerts.yml"), path.join(dir, "alerts.yml"));
      const config = readFileSync(path.join(DIR, "prometheus.yml"), "utf8").replaceAll("/etc/prometheus/webhook-admin-metrics-token", token);
      writeFileSync(path.join(dir, "prometheus.yml"), config);
      const run = promtoolRun(["check", "config", path.join(dir, "prometheus.yml")]);
      expect(run.status, run.output).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(promtool)("deploy/prometheus without promtool", () => {
  it.skip("is checked only where promtool is installed: apt-get install -y prometheus (.ci/run does)", () => {});
});

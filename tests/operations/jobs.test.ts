import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { TASKS } from "../../lib/jobs";
import { JOBS } from "../../worker/jobs";
import { sourceFiles } from "../helpers/sources";

/**
 * One definition per job (worker/define-job.ts), one registry (worker/jobs.ts): what the enqueuers
 * in lib/ and the SQL functions name is exactly what the worker runs, and a job written anywhere
 * else fails here rather than sitting in the queue with nobody to run it.
 */
const NAMES = new Set<string>(Object.values(TASKS));
const isJob = (value: unknown): value is { name: string; task: unknown } =>
  typeof value === "object" && value !== null && "name" in value && "task" in value && typeof (value as { task: unknown }).task === "function";

describe("the worker's jobs", () => {
  it("are each defined once, and the registry runs exactly the jobs lib/ names (TASKS)", () => {
    const names = JOBS.map((job) => job.name);
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(names)).toEqual(NAMES);
  });

  it("are defined only in worker/tasks/, each with defineJob and registered", async () => {
    const dir = path.join(process.cwd(), "worker/tasks");
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".ts"))) {
      const exports = Object.values((await import(path.join(dir, file))) as Record<string, unknown>);
      const jobs = exports.filter(isJob);
      expect(jobs.length, `${file} defines a job`).toBeGreaterThan(0);
      for (const job of jobs) expect(JOBS, `${file}'s ${job.name} is in worker/jobs.ts`).toContain(job);
    }
    // A graphile Task written by hand, outside defineJob, would bypass the payload's schema.
    const handWritten = sourceFiles("worker").filter((file) => /:\s*Task\s*=/.test(readFileSync(file, "utf8")));
    expect(handWritten).toEqual([]);
  });

  it("are enqueued only by a name the registry runs, from TypeScript and SQL alike", () => {
    const files = [...sourceFiles("lib"), ...sourceFiles("worker")].filter((f) => /\.(ts|sql)$/.test(f));
    const named: string[] = [];
    for (const file of files) {
      for (const match of readFileSync(file, "utf8").matchAll(/graphile_worker\.add_job\(\s*([^,]+),/g)) {
        const arg = match[1]!.trim();
        const name = /^\$\{TASKS\.(\w+)\}$/.exec(arg)?.[1];
        const literal = /^'([^']+)'$/.exec(arg)?.[1];
        named.push(`${file}: ${name ? (TASKS as Record<string, string>)[name] ?? `TASKS.${name}` : (literal ?? arg)}`);
      }
    }
    expect(named.length).toBeGreaterThan(5);
    expect(named.filter((entry) => !NAMES.has(entry.split(": ")[1]!))).toEqual([]);
  });
});

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The install-time fixes to postgres.js (scripts/patch-postgres.mjs, ADR 0011) are in the driver
 * that runs, in both its builds, and its pool queue still behaves as a queue with them.
 */
// The package's exports map hides its files; it is where npm puts it.
const root = path.resolve("node_modules/postgres");
const builds = ["src", "cjs/src"];

type Queue<T> = { readonly length: number; push(x: T): T; shift(): T; remove(x: T): T | null };
const Queue = createRequire(import.meta.url)(path.join(root, "cjs/src/queue.js")) as <T>(initial?: T[]) => Queue<T>;

describe("postgres.js as installed", () => {
  it.each(builds)("carries both fixes in %s", (build) => {
    expect(readFileSync(path.join(root, build, "connection.js"), "utf8")).toContain("/* webhook-admin: write-after-close fix */");
    const queue = readFileSync(path.join(root, build, "queue.js"), "utf8");
    expect(queue).toContain("/* webhook-admin: queue fix */");
    expect(queue).toContain("xs.indexOf(x, index)");
  });

  it("keeps its pool queue first in, first out across many cycles that never empty it, and removes from anywhere in it", () => {
    // As the idle-connection queue: a few always in it, one taken and given back per query.
    const resident = Array.from({ length: 8 }, (_, i) => ({ id: i }));
    const queue = Queue<{ id: number }>();
    for (const c of resident) queue.push(c);
    const order: number[] = [];
    for (let i = 0; i < 10_000; i++) {
      const c = queue.shift();
      order.push(c.id);
      queue.push(c);
    }
    // Round robin, whatever compaction happened on the way.
    expect(order.every((id, i) => id === i % 8)).toBe(true);
    expect(queue.length).toBe(8);
    // Taken out of the queue (as a connection that moves to busy), then not found again.
    const taken = queue.shift();
    expect(queue.remove(taken)).toBeNull();
    const middle = resident[(taken.id + 3) % 8]!;
    expect(queue.remove(middle)).toBe(middle);
    expect(queue.length).toBe(6);
    const rest: number[] = [];
    while (queue.length > 0) rest.push(queue.shift().id);
    expect(rest).toEqual([1, 2, 3, 4, 5, 6, 7].map((k) => (taken.id + k) % 8).filter((id) => id !== middle.id));
  });
});

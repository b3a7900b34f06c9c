import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { getSql } from "../../lib/db/client";
import { QUEUE_KINDS } from "../../lib/db/schema";
import { sourceFiles } from "../helpers/sources";

// One vocabulary for the queue's kinds: QUEUE_KINDS in TypeScript, webhook_admin_queue_kind(name) in
// SQL (made from it by lib/db/functions.ts), and no bare number standing for a kind anywhere.

/**
 * A queue kind written as a number: `kind = 0`, `kind <> 1`, `kind != 2`, `kind in (0, 1)`,
 * `array[0, 1, 2]` in SQL; `kind === 2`, `kind !== 0`, `kind == 1` in TypeScript.
 */
const LITERAL_KIND = /\bkind\s*(?:={1,3}|!==?|<>)\s*'?\d|\bkind\s+in\s*\(\s*'?\d|array\s*\[\s*0\s*,\s*1\s*,\s*2\s*\]/i;

/**
 * Where the code's TypeScript and SQL live, tests included. Not drizzle/: its migrations are never
 * edited once they land, and run before webhook_admin_queue_kind exists.
 */
const SCANNED = ["lib", "worker", "app", "tests", "scripts"];

// This file names the literals it looks for.
const THIS_FILE = path.relative(process.cwd(), fileURLToPath(import.meta.url));

function scannedFiles(): string[] {
  return SCANNED.flatMap((dir) => sourceFiles(dir, { tests: true })).filter((file) => file !== THIS_FILE);
}

function literalKinds(files: string[]): string[] {
  return files.flatMap((file) =>
    readFileSync(file, "utf8")
      .split("\n")
      .flatMap((line, i) => (LITERAL_KIND.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
  );
}

describe("the queue's kinds", () => {
  it("read the same in SQL as in TypeScript", async () => {
    for (const [name, kind] of Object.entries(QUEUE_KINDS)) {
      const [row] = await getSql()<{ kind: number }[]>`select webhook_admin_queue_kind(${name}) as kind`;
      expect(row!.kind, name).toBe(kind);
    }
  });

  it("are never a bare number in the code, its tests or its SQL", () => {
    const files = scannedFiles();
    // The scan reaches every folder named, and the SQL files among them.
    for (const dir of SCANNED) expect(files.some((file) => file.startsWith(`${dir}${path.sep}`)), dir).toBe(true);
    expect(files.some((file) => file.endsWith(".sql"))).toBe(true);
    expect(literalKinds(files)).toEqual([]);
  });

  it("are caught written as a number in each way the check looks for", () => {
    for (const line of [
      "where kind = 0",
      "WHERE q.kind=2",
      "and kind <> 1",
      "kind != 2",
      "kind in (0, 1)",
      "KIND IN(2)",
      "= any(array[0, 1, 2])",
      "row.kind === 2",
      "delivery.kind !== 0",
      "kind == 1",
    ]) {
      expect(LITERAL_KIND.test(line), line).toBe(true);
    }
    for (const line of [
      "where kind = webhook_admin_queue_kind('scheduled')",
      "kind in (webhook_admin_queue_kind('manual'), webhook_admin_queue_kind('recovery'))",
      "row.kind === QUEUE_KINDS.recovery",
      "where kind = ${kind}",
      "kinds = 0",
    ]) {
      expect(LITERAL_KIND.test(line), line).toBe(false);
    }
  });

  it("fold to the number when a statement is planned, so the index is used as with a literal", async () => {
    const plan = (await getSql().unsafe(
      "explain (costs off) select 1 from delivery_queue where kind = webhook_admin_queue_kind('recovery') and next_attempt_at <= now()",
    )) as { "QUERY PLAN": string }[];
    const text = plan.map((r) => r["QUERY PLAN"]).join("\n");
    expect(text).not.toMatch(/webhook_admin_queue_kind/);
    expect(text).toMatch(/kind = '?2'?/);
  });
});

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { getSql } from "../../lib/db/client";
import { QUEUE_KINDS } from "../../lib/db/schema";
import { sourceFiles } from "../helpers/sources";

// One vocabulary for the queue's kinds: QUEUE_KINDS in TypeScript, webhook_admin_queue_kind(name) in
// SQL (made from it by lib/db/functions.ts), and no bare number standing for a kind anywhere.

describe("the queue's kinds", () => {
  it("read the same in SQL as in TypeScript", async () => {
    for (const [name, kind] of Object.entries(QUEUE_KINDS)) {
      const [row] = await getSql()<{ kind: number }[]>`select webhook_admin_queue_kind(${name}) as kind`;
      expect(row!.kind, name).toBe(kind);
    }
  });

  it("are never a bare number in the code's SQL", () => {
    const literal = /\bkind\s*(=|<>|!=)\s*\d|array\s*\[\s*0\s*,\s*1\s*,\s*2\s*\]/i;
    const offenders = sourceFiles("lib").flatMap((file) =>
      readFileSync(file, "utf8")
        .split("\n")
        .flatMap((line, i) => (literal.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(offenders).toEqual([]);
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

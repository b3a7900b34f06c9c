import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { getSql } from "../../lib/db/client";
import { FUNCTION_FILES } from "../../lib/db/functions";

/**
 * Every SQL function of ours has its live source in one file (lib/db/functions.ts lists them), and
 * the database runs that file's body: none exists only in a migration, none is defined twice.
 */

/** name → body, of each CREATE OR REPLACE FUNCTION in the files. */
function definedInFiles(): Map<string, { file: string; body: string }[]> {
  const defined = new Map<string, { file: string; body: string }[]>();
  const create = /CREATE OR REPLACE FUNCTION (\w+)\([\s\S]*?AS \$\$([\s\S]*?)\$\$/g;
  for (const file of FUNCTION_FILES) {
    for (const [, name, body] of readFileSync(file, "utf8").matchAll(create)) {
      defined.set(name!, [...(defined.get(name!) ?? []), { file: path.relative(process.cwd(), file), body: body! }]);
    }
  }
  return defined;
}

describe("the SQL functions", () => {
  it("each live one has its source in one file, and runs that file's body", async () => {
    const defined = definedInFiles();
    const live = await getSql()<{ name: string; body: string }[]>`
      select p.proname as name, p.prosrc as body from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = current_schema() and p.proname like 'webhook_admin%'`;
    // Superseded claims stay until a later release drops them (previous releases' workers call them
    // during a rollout; docs/operating.md, Upgrading); the queue-kind function is generated from QUEUE_KINDS.
    const kept = new Set(["webhook_admin_claim_deliveries", "webhook_admin_queue_kind"]);
    const orphans = live.filter((f) => !kept.has(f.name) && !defined.has(f.name)).map((f) => f.name);
    expect(orphans, "functions in the database that no file in lib/db/functions.ts defines").toEqual([]);
    for (const [name, files] of defined) {
      expect(files.map((f) => f.file), `${name} defined once`).toHaveLength(1);
      const inDatabase = live.filter((f) => f.name === name);
      expect(inDatabase, `${name} in the database`).toHaveLength(1);
      expect(inDatabase[0]!.body.trim(), `${name}'s body is ${files[0]!.file}'s`).toBe(files[0]!.body.trim());
    }
  });
});

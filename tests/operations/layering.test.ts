import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { cruise, type ICruiseResult, type IForbiddenRuleType } from "dependency-cruiser";
import { afterAll, describe, expect, it } from "vitest";

/**
 * The layering rules of .dependency-cruiser.cjs (docs/project-layout.md#layering), which `npm run
 * check` runs over the tree: run here over a copy of lib/ with knots tied into it, each of which
 * must fail by its rule, while the copy's own imports, the tree's as it stands, fail nothing.
 */
const repo = path.resolve(import.meta.dirname, "../..");
const config = createRequire(import.meta.url)(path.join(repo, ".dependency-cruiser.cjs")) as {
  forbidden: IForbiddenRuleType[];
  options: Record<string, unknown>;
};

async function violations(baseDir: string) {
  // lib/ imports by relative paths only: the tsconfig's aliases are for app/ and components/.
  const { tsConfig: _aliases, ...options } = config.options;
  const { output } = await cruise(["lib"], { ...options, baseDir, validate: true, ruleSet: { forbidden: config.forbidden } });
  return (output as ICruiseResult).summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort();
}

describe("layering (.dependency-cruiser.cjs)", () => {
  const copy = mkdtempSync(path.join(tmpdir(), "layering-"));
  afterAll(() => rmSync(copy, { recursive: true, force: true }));
  cpSync(path.join(repo, "lib"), path.join(copy, "lib"), { recursive: true });
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
    writeFileSync(path.join(copy, file), text);
  };
  // The schema reading a domain's constant, as lib/db/schema/alerts.ts once read lib/alerts/kinds.ts.
  write("lib/db/schema/knot.ts", `import { ALWAYS_SENT_KINDS } from "../../alerts/kinds";\nexport const kinds = ALWAYS_SENT_KINDS;\n`);
  // Sideways against the order within a layer, by a type alone: consumers is listed before endpoints.
  write("lib/consumers/knot.ts", `import type { Endpoint } from "../endpoints/schemas";\nexport type Owned = { endpoint: Endpoint };\n`);
  // A folder no layer lists.
  write("lib/brand-new/thing.ts", `import { newId } from "../ids";\nexport const thing = () => newId("message");\n`);
  // Two files of one folder importing each other (the cycle is reported once).
  write("lib/stats/knot-a.ts", `import { b } from "./knot-b";\nexport const a = () => b();\n`);
  write("lib/stats/knot-b.ts", `import { a } from "./knot-a";\nexport const b = (): unknown => a;\n`);

  it("fails each knot by its rule, and nothing of the tree as it stands", async () => {
    expect(await violations(copy)).toEqual([
      "layers-import-down: lib/consumers/knot.ts → lib/endpoints/schemas.ts",
      "layers-import-down: lib/db/schema/knot.ts → lib/alerts/kinds.ts",
      "layers-list-every-folder: lib/brand-new/thing.ts → lib/ids.ts",
      "no-circular: lib/stats/knot-a.ts → lib/stats/knot-b.ts",
    ]);
  });
});

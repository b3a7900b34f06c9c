import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { TIERS, testTiers } from "../tiers";

const repo = path.resolve(import.meta.dirname, "../..");

describe("test tiers (vitest.config.ts)", () => {
  it("puts every test file of the repository in exactly one tier", () => {
    const tiers = testTiers(repo);
    const all = TIERS.flatMap((tier) => tiers[tier]);
    expect(new Set(all).size).toBe(all.length);
    for (const tier of TIERS) expect(tiers[tier].length, tier).toBeGreaterThan(0);
    expect(tiers.unit.every((file) => file.startsWith("lib/"))).toBe(true);
    expect(tiers.process).toContain("tests/operations/e2e-start.test.ts");
    expect(tiers.db).toContain("tests/deliveries/claim.test.ts");
  });

  describe("a file's tier follows what it imports", () => {
    const root = mkdtempSync(path.join(tmpdir(), "tiers-"));
    afterAll(() => rmSync(root, { recursive: true, force: true }));
    const write = (file: string, text: string) => {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    };
    write("lib/pure.test.ts", `import { x } from "./pure";`);
    write("tests/helpers/spawner.ts", `import { spawn } from "node:child_process";\nexport const s = spawn;`);
    write("tests/helpers/via.ts", `export { s } from "./spawner";`);
    write("tests/helpers/cycle-a.ts", `import "./cycle-b";`);
    write("tests/helpers/cycle-b.ts", `import "./cycle-a";`);
    write("tests/a/direct.test.ts", `import { execFile } from "child_process";`);
    write("tests/a/two-deep.test.ts", `import {\n  s,\n} from "../helpers/via";`);
    write("tests/a/dynamic.test.ts", `const m = await import("../helpers/spawner");`);
    write("tests/a/plain.test.ts", `import "../helpers/cycle-a";\nimport { getSql } from "../../lib/db/client";`);
    write("tests/browser/page.test.ts", `import "../helpers/spawner";`);

    it("starts a process itself, through a helper at any depth, or by a dynamic import: process", () => {
      expect(testTiers(root)).toEqual({
        unit: ["lib/pure.test.ts"],
        db: ["tests/a/plain.test.ts"],
        process: ["tests/a/direct.test.ts", "tests/a/dynamic.test.ts", "tests/a/two-deep.test.ts"],
        browser: ["tests/browser/page.test.ts"],
      });
    });
  });
});

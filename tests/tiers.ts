import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/**
 * Which tier each test file is in, read from what it imports rather than from a list kept by hand,
 * so a new file lands in the right tier without anyone remembering to put it there:
 * - unit: `lib/**\/*.test.ts`, pure logic with no database (their tier has no database to reach);
 * - browser: `tests/browser/`, the production build in Chromium;
 * - process: a file under `tests/` that starts a process (imports `node:child_process`) — the built
 *   app, a worker process, a previous release, promtool, the CLI — itself or through the helpers it
 *   imports;
 * - db: every other file under `tests/`, against PostgreSQL and HTTP in the test process.
 */
export type Tier = "unit" | "db" | "process" | "browser";
export const TIERS: readonly Tier[] = ["unit", "db", "process", "browser"];

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;
const CHILD_PROCESS = new Set(["node:child_process", "child_process"]);

/** What a file imports: the files among its relative imports, and whether it imports child_process itself. */
function importsOf(file: string, root: string): { files: string[]; childProcess: boolean } {
  const text = readFileSync(path.join(root, file), "utf8");
  const files: string[] = [];
  let childProcess = false;
  for (const match of text.matchAll(IMPORT)) {
    const spec = match[1] ?? match[2]!;
    if (CHILD_PROCESS.has(spec)) childProcess = true;
    if (!spec.startsWith(".")) continue;
    const target = path.normalize(path.join(path.dirname(file), spec));
    for (const candidate of [target, `${target}.ts`, `${target}.tsx`, path.join(target, "index.ts")]) {
      try {
        if (statSync(path.join(root, candidate)).isFile()) {
          files.push(candidate.split(path.sep).join("/"));
          break;
        }
      } catch {
        // not this spelling
      }
    }
  }
  return { files, childProcess };
}

/** Whether `file`, or a file under tests/ that it imports (at any depth), imports child_process. */
function startsProcess(file: string, root: string, memo: Map<string, boolean>): boolean {
  const known = memo.get(file);
  if (known !== undefined) return known;
  memo.set(file, false); // a cycle adds nothing
  const { files, childProcess } = importsOf(file, root);
  const result = childProcess || files.some((dep) => dep.startsWith("tests/") && startsProcess(dep, root, memo));
  memo.set(file, result);
  return result;
}

function testFiles(dir: string, root: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...testFiles(rel, root));
    else if (entry.name.endsWith(".test.ts")) out.push(rel);
  }
  return out;
}

/** Every test file by tier, as paths relative to `root`. */
export function testTiers(root: string): Record<Tier, string[]> {
  const memo = new Map<string, boolean>();
  const tiers: Record<Tier, string[]> = { unit: testFiles("lib", root), db: [], process: [], browser: [] };
  for (const file of testFiles("tests", root)) {
    if (file.startsWith("tests/browser/")) tiers.browser.push(file);
    else if (startsProcess(file, root, memo)) tiers.process.push(file);
    else tiers.db.push(file);
  }
  for (const files of Object.values(tiers)) files.sort();
  return tiers;
}

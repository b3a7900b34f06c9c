import { readdirSync } from "node:fs";
import path from "node:path";

/**
 * Every TypeScript (.ts, .tsx) and SQL source file under `dir`, for suites that check what the code
 * writes; test files are left out unless `tests` is set.
 */
export function sourceFiles(dir: string, { tests = false }: { tests?: boolean } = {}): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file, { tests });
    return /\.(ts|tsx|sql)$/.test(entry.name) && (tests || !entry.name.endsWith(".test.ts")) ? [file] : [];
  });
}

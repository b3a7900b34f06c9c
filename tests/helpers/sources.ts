import { readdirSync } from "node:fs";
import path from "node:path";

/** Every TypeScript and SQL source file under `dir` (tests left out): for suites that check what the code writes. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return /\.(ts|sql)$/.test(entry.name) && !entry.name.endsWith(".test.ts") ? [file] : [];
  });
}

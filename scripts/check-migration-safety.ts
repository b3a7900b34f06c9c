/**
 * Fails when a migration added after the grandfathered ones (0000–0012) would lock a table that
 * grows with traffic for a scan or a rewrite (lib/db/migration-safety.ts says which statements).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { checkMigrations, migrationNumber } from "../lib/db/migration-safety";

const folder = "drizzle";
const files = readdirSync(folder)
  .filter((file) => migrationNumber(file) !== null)
  .sort()
  .map((file) => ({ file, sql: readFileSync(path.join(folder, file), "utf8") }));
const problems = checkMigrations(files);
if (problems.length > 0) {
  for (const p of problems) console.error(`${p.file}: ${p.message}\n    ${p.statement}`);
  console.error(
    `\n${problems.length} unsafe migration statement(s). See "Upgrading" in docs/operating.md (expand/contract); ` +
      'a statement reviewed as safe may carry a line "-- migration-safety: <why>".',
  );
  process.exit(1);
}
console.log(`Migrations are safe to run online (${files.length} files; those after 0012 checked).`);

/**
 * Fails when the schema in lib/db/schema has changes that drizzle/ has no migration for: runs
 * `drizzle-kit generate` against a scratch copy of drizzle/ and requires it to find nothing to write.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

// drizzle-kit only accepts an output folder relative to the working directory.
const scratch = path.join(".data", "migration-check");
rmSync(scratch, { recursive: true, force: true });
mkdirSync(scratch, { recursive: true });
try {
  const out = `./${scratch}/drizzle`;
  cpSync("drizzle", out, { recursive: true });
  const config = path.join(scratch, "drizzle.config.mjs");
  writeFileSync(config, `export default { dialect: "postgresql", schema: "./lib/db/schema/index.ts", out: ${JSON.stringify(out)} };\n`);
  const run = spawnSync(path.resolve("node_modules/.bin/drizzle-kit"), ["generate", "--config", config], { encoding: "utf8" });
  const output = `${run.stdout}\n${run.stderr}`;
  if (run.status !== 0 || !output.includes("No schema changes")) {
    console.error(output.trim());
    console.error("\nThe schema and drizzle/ disagree: run `npm run db:generate` and commit the migration.");
    process.exit(1);
  }
  console.log("Migrations match the schema.");
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

import { readFileSync, writeFileSync } from "node:fs";
import { matrix, matrixIn } from "../tests/svix/spec-operations";

// docs/svix.md's support matrix, from Svix's pinned API document and this server's routes (the table
// tests/svix/spec-coverage.test.ts checks): printed, or with --write put in place of the page's.
const PAGE = "docs/svix.md";
const table = await matrix();
if (process.argv.includes("--write")) {
  const page = readFileSync(PAGE, "utf8");
  const old = matrixIn(page);
  if (!old) throw new Error(`${PAGE} has no matrix block to replace`);
  writeFileSync(PAGE, page.replace(old, table));
} else {
  console.log(table);
}

// postinstall: a two-line fix to postgres.js 3.4.9 (porsager/postgres#1154, #1208, open upstream).
// When a connection dies with a small write buffered, the driver (a) throws from a setImmediate,
// crashing the process, and (b) keeps a stale write timer that stops the pooled connection from
// ever writing again, so later queries on it hang. Both hit during any database restart. The fix
// resets the buffered write when the socket goes away and refuses to write to a missing socket.
// Idempotent; fails loudly if the driver's code no longer looks as expected.
import { existsSync, readFileSync, writeFileSync } from "node:fs";

const MARK = "/* webhook-admin: write-after-close fix */";
const files = ["node_modules/postgres/src/connection.js", "node_modules/postgres/cjs/src/connection.js"];

for (const file of files) {
  if (!existsSync(file)) continue;
  let source = readFileSync(file, "utf8");
  if (source.includes(MARK)) continue;
  const before = source;
  source = source.replace(
    "  function nextWrite(fn) {\n    const x = socket.write(chunk, fn)",
    `  function nextWrite(fn) {\n    ${MARK}\n    if (!socket) return (chunk = nextWriteTimer = null, false)\n    const x = socket.write(chunk, fn)`,
  );
  source = source.replaceAll("    clearImmediate(nextWriteTimer)\n", "    clearImmediate(nextWriteTimer)\n    chunk = nextWriteTimer = null\n");
  if (source === before || !source.includes(MARK) || source.split("chunk = nextWriteTimer = null").length < 4) {
    console.error(`patch-postgres: ${file} does not look like postgres.js 3.4.9; not patched`);
    process.exit(1);
  }
  writeFileSync(file, source);
}

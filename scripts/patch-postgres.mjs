// postinstall: two small fixes to postgres.js 3.4.9, each idempotent, each failing loudly if the
// driver's code no longer looks as expected (ADR 0011).
//
// 1. Write after close (porsager/postgres#1154, #1208, open upstream). When a connection dies with
//    a small write buffered, the driver (a) throws from a setImmediate, crashing the process, and
//    (b) keeps a stale write timer that stops the pooled connection from ever writing again, so
//    later queries on it hang. Both hit during any database restart. The fix resets the buffered
//    write when the socket goes away and refuses to write to a missing socket.
// 2. A pool queue that grows with every query. Queue.shift() leaves a hole at the front of its
//    array and empties the array only when the queue runs empty; the queue of idle connections
//    never does while the pool has a spare connection, so its array grows by one entry a query for
//    as long as the process lives — and remove(), called on every query, scans it from the start.
//    A query's cost grows with the process's age (bench/postgres-queue.ts measures it: see
//    docs/benchmarks.md#other-benchmark-scripts). The fix searches from the queue's head and drops
//    the holes once they are half of the array.
import { existsSync, readFileSync, writeFileSync } from "node:fs";

const patches = [
  {
    mark: "/* webhook-admin: write-after-close fix */",
    file: "connection.js",
    apply(source, mark) {
      return source
        .replace(
          "  function nextWrite(fn) {\n    const x = socket.write(chunk, fn)",
          `  function nextWrite(fn) {\n    ${mark}\n    if (!socket) return (chunk = nextWriteTimer = null, false)\n    const x = socket.write(chunk, fn)`,
        )
        .replaceAll("    clearImmediate(nextWriteTimer)\n", "    clearImmediate(nextWriteTimer)\n    chunk = nextWriteTimer = null\n");
    },
    applied: (source) => source.split("chunk = nextWriteTimer = null").length >= 4,
  },
  {
    mark: "/* webhook-admin: queue fix */",
    file: "queue.js",
    apply(source, mark) {
      return source
        .replace(
          "    remove: (x) => {\n      const index = xs.indexOf(x)\n      return index === -1\n        ? null\n        : (xs.splice(index, 1), x)\n    },",
          `    remove: (x) => {\n      ${mark}\n      const at = xs.indexOf(x, index)\n      return at === -1\n        ? null\n        : (xs.splice(at, 1), x)\n    },`,
        )
        .replace(
          "        xs = []\n      } else {\n        xs[index - 1] = undefined\n      }",
          "        xs = []\n      } else if (index >= 1024 && index * 2 >= xs.length) {\n        xs = xs.slice(index)\n        index = 0\n      } else {\n        xs[index - 1] = undefined\n      }",
        );
    },
    applied: (source) => source.includes("xs.indexOf(x, index)") && source.includes("xs = xs.slice(index)"),
  },
];

for (const dir of ["node_modules/postgres/src", "node_modules/postgres/cjs/src"]) {
  for (const patch of patches) {
    const file = `${dir}/${patch.file}`;
    if (!existsSync(file)) continue;
    const before = readFileSync(file, "utf8");
    if (before.includes(patch.mark)) continue;
    const after = patch.apply(before, patch.mark);
    if (after === before || !after.includes(patch.mark) || !patch.applied(after)) {
      console.error(`patch-postgres: ${file} does not look like postgres.js 3.4.9; not patched`);
      process.exit(1);
    }
    writeFileSync(file, after);
  }
}

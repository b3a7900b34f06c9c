/**
 * `node --import tsx bench/postgres-queue.ts [--blocks 8] [--queries 50000]`: postgres.js's cost a
 * query over a long run, from a pool of ten connections with two queries in flight at a time (so
 * the pool always has idle connections, as a web process or worker mostly does). Prints µs a query
 * for each block of `queries`: flat with the install-time queue fix (scripts/patch-postgres.mjs,
 * ADR 0011); without it, the cost grew by about 18 µs every 50,000 queries, for as long as the
 * process lived.
 */
import { parseArgs } from "node:util";
import postgres from "postgres";
import { prepareDatabase } from "./database";

const { values } = parseArgs({ options: { blocks: { type: "string", default: "8" }, queries: { type: "string", default: "50000" } } });

const db = await prepareDatabase({ fsync: false, log: () => {} });
const sql = postgres(db.url, { max: 10, onnotice: () => {} });
// All ten connections open before the first block.
await Promise.all(Array.from({ length: 10 }, () => sql`select pg_sleep(0.05)`));
const pairs = Number(values.queries) / 2;
for (let block = 0; block < Number(values.blocks); block++) {
  const started = performance.now();
  for (let i = 0; i < pairs; i++) await Promise.all([sql`select 1`, sql`select 2`]);
  const micros = ((performance.now() - started) * 1000) / (pairs * 2);
  console.log(`queries ${(block * pairs * 2).toLocaleString("en-US")}–${((block + 1) * pairs * 2).toLocaleString("en-US")}: ${micros.toFixed(1)} µs a query`);
}
await sql.end();
await db.stop();

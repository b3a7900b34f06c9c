/**
 * `node --import tsx bench/claim-consumers.ts [--vs 8ebb7f7] [--consumers 10,1000,10000] [--rounds 4]`:
 * what fair claiming (issue 38) costs per row as the number of consumers with due work grows — the
 * claim alone, no worker, no HTTP, on one database. For each count, that many consumers with one
 * endpoint each (room for every row) and max(count, 4,000) due rows dealt round robin over them;
 * each round puts one claim's stages in place (this tree's, or the time-order claim of `--vs`), makes
 * every row due again and claims batches of 100 until all are leased; the two alternate round by
 * round. Prints the median PostgreSQL backend CPU and wall time per leased row.
 */
import { parseArgs } from "node:util";
import { createSql } from "../lib/db/client";
import { newId } from "../lib/ids";
import { processCpuSeconds } from "./cpu";
import { prepareDatabase } from "./database";
import { median } from "./stats";
import { applyThisTreesClaim, claimBodyAt } from "./claim-ab";

const { values } = parseArgs({
  options: {
    vs: { type: "string", default: "8ebb7f7" },
    consumers: { type: "string", default: "10,1000,10000" },
    rounds: { type: "string", default: "4" },
  },
});
const counts = values.consumers!.split(",").map(Number);
const rounds = Number(values.rounds);

async function main() {
  const db = await prepareDatabase({ fsync: false, log: () => {} });
  const sql = createSql(db.url, { max: 1, name: "claim-consumers" });
  const before = claimBodyAt(values.vs!);
  const lines: string[] = [];
  try {
    const pid = (await sql<{ pid: number }[]>`select pg_backend_pid() as pid`)[0]!.pid;
    for (const count of counts) {
      await sql`delete from delivery_queue`;
      await sql`delete from deliveries`;
      await sql`delete from messages`;
      await sql`delete from endpoints`;
      await sql`delete from consumers`;
      const consumers = Array.from({ length: count }, () => newId("consumer"));
      const endpoints = Array.from({ length: count }, () => newId("endpoint"));
      await sql`insert into consumers (id, uid, name) select c, c, c from unnest(${consumers}::text[]) as c`;
      await sql`insert into endpoints (id, consumer_id, url, max_concurrency)
                select e, c, 'http://127.0.0.1:9/', 1000 from unnest(${endpoints}::text[], ${consumers}::text[]) as x(e, c)`;
      const rows = Math.max(count, 4000);
      const messageIds = Array.from({ length: rows }, () => newId("message"));
      const deliveryIds = Array.from({ length: rows }, () => newId("delivery"));
      const at = (i: number) => i % count;
      await sql`insert into messages (id, consumer_id, event_type, payload)
        select unnest(${messageIds}::text[]), unnest(${messageIds.map((_, i) => consumers[at(i)]!)}::text[]), 'bench.claim', '{"bench":"claim"}'`;
      await sql`insert into deliveries (id, message_id, endpoint_id, consumer_id, status, next_attempt_at)
        select unnest(${deliveryIds}::text[]), unnest(${messageIds}::text[]), unnest(${deliveryIds.map((_, i) => endpoints[at(i)]!)}::text[]),
               unnest(${deliveryIds.map((_, i) => consumers[at(i)]!)}::text[]), 'pending', now()`;
      await sql`insert into delivery_queue (delivery_id, endpoint_id, consumer_id, next_attempt_at)
        select unnest(${deliveryIds}::text[]), unnest(${deliveryIds.map((_, i) => endpoints[at(i)]!)}::text[]),
               unnest(${deliveryIds.map((_, i) => consumers[at(i)]!)}::text[]), now()`;
      const times = { fair: { cpu: [] as number[], wall: [] as number[] }, time: { cpu: [] as number[], wall: [] as number[] } };
      for (let round = 0; round < rounds * 2; round++) {
        const variant = round % 4 === 0 || round % 4 === 3 ? "fair" : "time";
        if (variant === "fair") await applyThisTreesClaim(sql);
        else await sql.unsafe(before);
        await sql`update delivery_queue set lease_token = null, parked = false, next_attempt_at = now() - interval '1 second'`;
        await sql`vacuum analyze delivery_queue`;
        const cpuBefore = processCpuSeconds(pid);
        const started = process.hrtime.bigint();
        let leased = 0;
        for (let i = 0; leased < rows && i < rows; i++) {
          const [row] = await sql<{ n: number }[]>`select count(*)::int as n from webhook_admin_claim_deliveries_v2(100, 600000, 10, ${`t${round}-${i}`}, null)`;
          leased += row!.n;
        }
        const wall = Number(process.hrtime.bigint() - started) / 1e3 / leased;
        const cpu = ((processCpuSeconds(pid) - cpuBefore) * 1e6) / leased;
        times[variant].cpu.push(cpu);
        times[variant].wall.push(wall);
        console.log(`${count} consumers, round ${round + 1} ${variant}: ${cpu.toFixed(1)} µs CPU, ${wall.toFixed(1)} µs wall per leased row (${leased} leased)`);
      }
      const line =
        `${String(count).padStart(6)} consumers (${rows} rows): fair ${median(times.fair.cpu).toFixed(1)} µs CPU / ${median(times.fair.wall).toFixed(1)} µs wall per row; ` +
        `${values.vs} (time order) ${median(times.time.cpu).toFixed(1)} / ${median(times.time.wall).toFixed(1)}; CPU ratio ${(median(times.fair.cpu) / median(times.time.cpu)).toFixed(2)}`;
      lines.push(line);
      console.log(line);
    }
    console.log(`\nmedian per leased row, ${rounds} rounds each, claims of 100:\n${lines.join("\n")}`);
  } finally {
    await applyThisTreesClaim(sql);
    await sql.end();
    await db.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

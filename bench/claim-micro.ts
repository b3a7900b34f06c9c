/**
 * `node --import tsx bench/claim-micro.ts [--vs 132ac54] [--rounds 8] [--claims 40] [--endpoints 20]`:
 * the claim alone, this tree's against an earlier commit's, on one database — no worker, no HTTP.
 * Due rows are queued by SQL for `endpoints` endpoints (one consumer each, room for every row);
 * each round puts one claim's body in place, makes every queue row due again, and times `claims`
 * claims of 100 in turn, the two bodies alternating round by round. Prints the median time per
 * claim, client-side and in PostgreSQL (track_functions), and their ratio.
 */
import { parseArgs } from "node:util";
import { createSql } from "../lib/db/client";
import { newId } from "../lib/ids";
import { applyThisTreesClaim, claimBodyAt } from "./claim-ab";
import { processCpuSeconds } from "./cpu";
import { prepareDatabase } from "./database";
import { median } from "./stats";

const { values } = parseArgs({
  options: {
    vs: { type: "string", default: "132ac54" },
    rounds: { type: "string", default: "8" },
    claims: { type: "string", default: "40" },
    endpoints: { type: "string", default: "20" },
  },
});
const rounds = Number(values.rounds);
const claims = Number(values.claims);
const endpointCount = Number(values.endpoints);

async function main() {
  const db = await prepareDatabase({ fsync: false, log: () => {} });
  const sql = createSql(db.url, { max: 1, name: "claim-micro" });
  try {
    const before = claimBodyAt(values.vs!);
    const endpoints: { id: string; consumer: string }[] = [];
    for (let i = 0; i < endpointCount; i++) {
      const consumer = newId("consumer");
      const id = newId("endpoint");
      await sql`insert into consumers (id, uid, name) values (${consumer}, ${`c${i}`}, ${`c${i}`})`;
      await sql`insert into endpoints (id, consumer_id, url, max_concurrency) values (${id}, ${consumer}, 'http://127.0.0.1:9/', 1000)`;
      endpoints.push({ id, consumer });
    }
    const rows = claims * 100;
    const messageIds = Array.from({ length: rows }, () => newId("message"));
    const deliveryIds = Array.from({ length: rows }, () => newId("delivery"));
    const endpointOf = (i: number) => endpoints[i % endpoints.length]!;
    await sql`insert into messages (id, consumer_id, event_type, payload)
      select unnest(${messageIds}::text[]), unnest(${messageIds.map((_, i) => endpointOf(i).consumer)}::text[]), 'bench.claim', '{"bench":"claim"}'`;
    await sql`insert into deliveries (id, message_id, endpoint_id, consumer_id, status, next_attempt_at)
      select unnest(${deliveryIds}::text[]), unnest(${messageIds}::text[]), unnest(${deliveryIds.map((_, i) => endpointOf(i).id)}::text[]),
             unnest(${deliveryIds.map((_, i) => endpointOf(i).consumer)}::text[]), 'pending', now()`;
    await sql`insert into delivery_queue (delivery_id, endpoint_id, consumer_id, next_attempt_at)
      select unnest(${deliveryIds}::text[]), unnest(${deliveryIds.map((_, i) => endpointOf(i).id)}::text[]),
             unnest(${deliveryIds.map((_, i) => endpointOf(i).consumer)}::text[]), now()`;
    await sql`set track_functions = 'pl'`;
    const pid = (await sql<{ pid: number }[]>`select pg_backend_pid() as pid`)[0]!.pid;
    const times: Record<"this tree" | "before", { client: number[]; server: number[]; cpu: number[] }> = {
      "this tree": { client: [], server: [], cpu: [] },
      before: { client: [], server: [], cpu: [] },
    };
    for (let round = 0; round < rounds * 2; round++) {
      const variant = (round % 4 === 0 || round % 4 === 3) ? "this tree" : "before";
      if (variant === "this tree") await applyThisTreesClaim(sql);
      else await sql.unsafe(before);
      await sql`update delivery_queue set lease_token = null, parked = false, next_attempt_at = now() - interval '1 second'`;
      await sql`vacuum analyze delivery_queue`;
      await sql`select pg_stat_reset()`;
      const cpuBefore = processCpuSeconds(pid);
      const started = process.hrtime.bigint();
      let leased = 0;
      for (let i = 0; i < claims; i++) {
        const [row] = await sql<{ n: number }[]>`select count(*)::int as n from webhook_admin_claim_deliveries_v2(100, 600000, 10, ${`t${round}-${i}`}, null)`;
        leased += row!.n;
      }
      const client = Number(process.hrtime.bigint() - started) / 1e6 / claims;
      const cpu = ((processCpuSeconds(pid) - cpuBefore) * 1000) / claims;
      await sql`select pg_stat_force_next_flush()`;
      await sql`select pg_stat_clear_snapshot()`;
      const [stat] = await sql<{ total: number }[]>`select coalesce(sum(total_time), 0)::float8 as total from pg_stat_user_functions where funcname = 'webhook_admin_claim_deliveries_v2'`;
      const server = stat!.total / claims;
      times[variant].client.push(client);
      times[variant].server.push(server);
      times[variant].cpu.push(cpu);
      console.log(`round ${round + 1} ${variant.padEnd(9)}: ${client.toFixed(2)} ms per claim (${server.toFixed(2)} ms in PostgreSQL, ${cpu.toFixed(2)} ms of its CPU), ${leased} rows leased`);
    }
    const a = times["this tree"];
    const b = times.before;
    const line = (k: "client" | "server" | "cpu", what: string) =>
      `${what}: this tree ${median(a[k]).toFixed(2)} ms, ${values.vs} ${median(b[k]).toFixed(2)} ms, ratio ${(median(a[k]) / median(b[k])).toFixed(3)}`;
    console.log(`\nmedian per claim of 100 rows, ${rounds} rounds each:`);
    console.log(line("cpu", "  PostgreSQL backend CPU"));
    console.log(line("server", "  claim function time (track_functions)"));
    console.log(line("client", "  wall time at the client"));
  } finally {
    await sql.end();
    await db.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

// Vendored verbatim from prototype-batch.mjs in the shared workspace's bench directory (outside this
// repository) so the bench is self-sufficient. It is the anchor part b2 of `npm run bench` measures
// part b against (bench/lean-probe.ts, docs/benchmarks.md b2): keep it as it is; only this header
// was added. It is never imported into the product.
// The lean batch probe: the least a logged delivery costs on this stack. Due deliveries are claimed
// 100 at a time from a bare table (FOR UPDATE SKIP LOCKED + a lease), signed, POSTed with undici to
// a 204 receiver, and their attempts and outcomes written per batch. No caps, schedule or rollup.
// Usage: node receiver.cjs 18090 &   then   DATABASE_URL=postgres://… node prototype-batch.mjs 20000 8 100
// (N deliveries, claimers, batch size). Needs the postgres and undici packages (the product has both).
import postgres from 'postgres';
import { Agent, request } from 'undici';
import crypto from 'node:crypto';
const [N, CLAIMERS, BATCH] = process.argv.slice(2).map(Number);
const sql = postgres(process.env.DATABASE_URL, { max: CLAIMERS + 2, onnotice: () => {} });
const agent = new Agent({ connections: 128, keepAliveTimeout: 30000 });
const key = crypto.randomBytes(32);
const body = JSON.stringify({ type: 'invoice.paid', data: { blob: 'x'.repeat(980) } });
await sql`drop table if exists p_deliveries`; await sql`drop table if exists p_attempts`;
await sql`create table p_deliveries (id bigserial primary key, msg text not null, ep text not null, status text not null default 'pending', next_at timestamptz not null default now(), lease_until timestamptz, attempts int not null default 0)`;
await sql`create index on p_deliveries (next_at) where status = 'pending'`;
await sql`create table p_attempts (id bigserial primary key, delivery_id bigint not null, status int, response text, duration int, created_at timestamptz not null default now())`;
for (let i = 0; i < N; i += 5000) {
  const rows = Array.from({ length: Math.min(5000, N - i) }, (_, j) => ({ msg: 'msg_' + (i + j), ep: 'ep_' + ((i + j) % 20) }));
  await sql`insert into p_deliveries ${sql(rows, 'msg', 'ep')}`;
}
let done = 0;
const t0 = performance.now();
async function claimer() {
  for (;;) {
    const batch = await sql`update p_deliveries set lease_until = now() + interval '60 seconds' where id in (select id from p_deliveries where status = 'pending' and next_at <= now() and (lease_until is null or lease_until < now()) order by next_at limit ${BATCH} for update skip locked) returning id, msg, ep`;
    if (!batch.length) { if (done >= N) return; await new Promise((r) => setTimeout(r, 5)); continue; }
    const results = await Promise.all(batch.map(async (d) => {
      const ts = Math.floor(Date.now() / 1000);
      const sig = crypto.createHmac('sha256', key).update(`${d.msg}.${ts}.${body}`).digest('base64');
      const t = performance.now();
      const r = await request('http://127.0.0.1:18090/hook', { method: 'POST', body, dispatcher: agent, headers: { 'content-type': 'application/json', 'webhook-id': d.msg, 'webhook-timestamp': String(ts), 'webhook-signature': 'v1,' + sig } });
      const text = await r.body.text();
      return { delivery_id: d.id, status: r.statusCode, response: text.slice(0, 1024), duration: Math.round(performance.now() - t) };
    }));
    await sql.begin(async (tx) => {
      await tx`insert into p_attempts ${tx(results, 'delivery_id', 'status', 'response', 'duration')}`;
      await tx`update p_deliveries set status = 'succeeded', attempts = attempts + 1, lease_until = null where id = any(${batch.map((d) => d.id)})`;
    });
    done += batch.length;
  }
}
await Promise.all(Array.from({ length: CLAIMERS }, claimer));
const el = performance.now() - t0;
const [{ c }] = await sql`select count(*)::int c from p_attempts`;
console.log(`batch claimers=${CLAIMERS} batch=${BATCH}: ${N} deliveries in ${el.toFixed(0)} ms = ${(N / el * 1000).toFixed(0)} deliveries/s (attempt rows=${c})`);
await sql.end(); await agent.close();

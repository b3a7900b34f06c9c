/**
 * `node --import tsx bench/ingest-micro.ts [--calls 4000] [--concurrency 32] [--rounds 3] [--stage the]`: where a
 * POST /messages request's CPU goes, in-process, without HTTP — each stage alone at the given
 * concurrency, in turn round by round: the API key's lookup, the ingest verb, the WHATWG Request
 * and Response the route is called with, and the route's whole handler (withApi, body parsing,
 * zod, the verb, the answer). Prints this process's CPU (user + system, so postgres.js's work
 * included) per call, median over rounds. PostgreSQL's own CPU is not counted.
 */
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import { prepareDatabase } from "./database";
import { percentile } from "./stats";

const { values } = parseArgs({
  options: { calls: { type: "string", default: "4000" }, concurrency: { type: "string", default: "32" }, rounds: { type: "string", default: "3" }, stage: { type: "string" } },
});
const calls = Number(values.calls);
const concurrency = Number(values.concurrency);
const rounds = Number(values.rounds);
const median = (xs: number[]) => percentile(xs, 50);

async function timed(run: (i: number) => Promise<unknown>): Promise<{ cpu: number; wall: number }> {
  let next = 0;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < calls) await run(next++);
  }));
  const c = process.cpuUsage(c0);
  return { cpu: (c.user + c.system) / calls, wall: (performance.now() - t0) / calls };
}

async function main() {
  const db = await prepareDatabase({ fsync: false, log: () => {} });
  process.env.DATABASE_URL = db.url;
  process.env.LOG_LEVEL = "warn";
  process.env.ENCRYPTION_KEY ??= randomBytes(32).toString("hex");
  process.env.ALLOW_PRIVATE_ENDPOINTS ??= "true";
  process.env.ALLOW_HTTP_ENDPOINTS ??= "true";
  process.env.API_RATE_LIMIT_PER_SECOND = "1000000";
  try {
    const { systemCtx, openCtx } = await import("../lib/open-ctx");
    const { createApiKey } = await import("../lib/api-keys");
    const { authenticateApiKey } = await import("../lib/api-keys/authenticate-api-key");
    const { createConsumer } = await import("../lib/consumers");
    const { createEndpoint } = await import("../lib/endpoints");
    const { createMessage } = await import("../lib/messages");
    const { POST } = await import("../app/api/v1/messages/route");
    const system = systemCtx();
    const key = await createApiKey({ ctx: system, input: { name: "micro" } });
    const consumer = await createConsumer({ ctx: system, input: { uid: "micro", name: "micro" } });
    await createEndpoint({ ctx: system, consumerRef: consumer.id, input: { url: "http://127.0.0.1:9/hook" } as never });
    const actorCtx = openCtx({ type: "api_key", id: key.id });
    const body = JSON.stringify({ consumer: "micro", event_type: "invoice.paid", payload: { invoice: { id: "inv_1", amount: 1200, currency: "eur", note: "x".repeat(120) } } });
    const request = () =>
      new Request("http://127.0.0.1/api/v1/messages", { method: "POST", headers: { authorization: `Bearer ${key.key}`, "content-type": "application/json" }, body });
    const stages: Record<string, (i: number) => Promise<unknown>> = {
      "Request + text() + Response": async () => {
        const req = request();
        await req.text();
        return new Response(JSON.stringify({ id: "msg" }), { status: 202, headers: { "content-type": "application/json" } }).text();
      },
      "API key lookup": () => authenticateApiKey({ ctx: system, token: key.key }),
      "createMessage (the verb)": () => createMessage({ ctx: actorCtx, input: JSON.parse(body) }),
      "the route's handler, whole": async (i) => {
        const res = await POST(request(), { params: Promise.resolve({}) });
        if (res.status !== 202 && i === 0) throw new Error(`status ${res.status}: ${await res.text()}`);
        return res.text();
      },
    };
    // --stage <start of a name>: that stage alone (to profile it with node --cpu-prof).
    for (const name of Object.keys(stages)) if (values.stage && !name.startsWith(values.stage)) delete stages[name];
    for (const run of Object.values(stages)) await timed(run); // warm-up
    const figures: Record<string, { cpu: number[]; wall: number[] }> = {};
    for (let r = 0; r < rounds; r++) {
      for (const [name, run] of Object.entries(stages)) {
        const { cpu, wall } = await timed(run);
        (figures[name] ??= { cpu: [], wall: [] }).cpu.push(cpu);
        figures[name]!.wall.push(wall);
      }
    }
    console.log(`${calls} calls a stage, ${concurrency} at a time, median of ${rounds} rounds (this process's CPU, postgres.js included):`);
    for (const [name, f] of Object.entries(figures)) console.log(`  ${name.padEnd(30)} ${median(f.cpu).toFixed(0).padStart(6)} µs CPU a call, ${(1000 / median(f.wall)).toFixed(0)} calls/s`);
  } finally {
    const { closeDb } = await import("../lib/db/client").catch(() => ({ closeDb: undefined }));
    await closeDb?.().catch(() => {});
    await db.stop();
  }
}

main().then(() => process.exit(0), (error) => {
  console.error(error);
  process.exit(1);
});

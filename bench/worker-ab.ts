/**
 * `node --import tsx bench/worker-ab.ts --vs <commit> [--pairs 3] [--deliveries 20000] [--probe-runs 2]`:
 * part b's delivery with this tree's worker against an earlier commit's, on one database, so a
 * change to the delivery pipeline is measured beside what it replaces in the same minutes — this
 * machine's speed drifts by 2–3× across hours, so figures from different runs do not compare.
 *
 * The commit is checked out once into a worktree under the system's temp directory (its
 * node_modules linked to this one's). Both sides run against this tree's schema, so the commit's
 * migrations must be this tree's; each phase first puts its own side's SQL functions (the claim,
 * the wake-ups, …) in place. Part b's set-up: `--endpoints` consumers × 1 endpoint, max_concurrency
 * 100, a 204 receiver; each phase queues `--deliveries` by SQL and starts a fresh worker (pairs in
 * turn: A/B, then B/A). Then the lean batch probe (part b2's anchor) runs `--probe-runs` times on
 * the same database, and each side's median rate is printed as a ratio of the probe's median.
 */
import { execFileSync } from "node:child_process";
import { existsSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import type { Ctx } from "../lib/context";
import { ormOver } from "../lib/db/client";
import { parseConfig } from "../lib/config";
import { createConsumer } from "../lib/consumers/create-consumer";
import { createEndpoint } from "../lib/endpoints/create-endpoint";
import { prepareDatabase } from "./database";
import { runLeanProbe } from "./lean-probe";
import { productEnv } from "./product";
import { startReceiver } from "./receiver";
import { measureDeliveryPairs, summarizePairs } from "./delivery-pairs";
import { dropEveryClaimForm } from "./claim-ab";
import { int } from "./stats";
import { ensureLogDir, markShuttingDown, stopAll } from "./system";

const { values } = parseArgs({
  options: {
    vs: { type: "string" },
    pairs: { type: "string", default: "3" },
    deliveries: { type: "string", default: "20000" },
    endpoints: { type: "string", default: "20" },
    "probe-runs": { type: "string", default: "2" },
    "fsync-off": { type: "boolean", default: false },
    statements: { type: "boolean", default: false },
  },
});
if (!values.vs) throw new Error("--vs <commit>: the commit whose worker to compare with this tree's");

const git = (...args: string[]) => execFileSync("git", args, { encoding: "utf8" }).trim();

/** The commit's checkout, made once and reused. */
function checkout(ref: string): string {
  const sha = git("rev-parse", "--verify", `${ref}^{commit}`);
  if (git("diff", "--name-only", sha, "--", "drizzle") !== "")
    throw new Error(`${ref} has other migrations than this tree: its worker would run against a schema it does not know`);
  const dir = path.join(os.tmpdir(), `webhook-admin-${sha.slice(0, 12)}`);
  if (!existsSync(dir)) {
    git("worktree", "add", "--detach", dir, sha);
    symlinkSync(path.resolve("node_modules"), path.join(dir, "node_modules"));
  }
  return dir;
}

async function main() {
  const other = checkout(values.vs!);
  const say = (line: string) => console.log(line);
  // --statements: PostgreSQL's time per statement (inside functions too), per attempt, each side's last phase.
  const statements = values.statements ? { shared_preload_libraries: "pg_stat_statements", "pg_stat_statements.track": "all" } : undefined;
  const db = await prepareDatabase({ fsync: !values["fsync-off"], log: say, settings: statements });
  const receiver = await startReceiver();
  const logDir = await ensureLogDir(path.resolve(".data/bench/logs"));
  try {
    const env = productEnv(db.url);
    const ctx: Ctx = { actor: { type: "system" }, db: ormOver(db.sql), sql: db.sql, config: parseConfig(env) };
    const endpointIds: string[] = [];
    for (let i = 0; i < Number(values.endpoints); i++) {
      await createConsumer({ ctx, input: { uid: `ab${i}`, name: `Bench ${i}` } as never });
      const endpoint = await createEndpoint({ ctx, consumerRef: `ab${i}`, input: { url: receiver.url, max_concurrency: 100 } as never });
      endpointIds.push((endpoint as { id: string }).id);
    }
    // Each side's SQL functions, as that side's `npm start` would have put them in place (the
    // claim's other forms dropped first: with two, a call may match both).
    const applyFunctions = async (root: string) => {
      const { applySqlFunctions } = (await import(path.join(root, "lib/db/functions.ts"))) as typeof import("../lib/db/functions");
      await dropEveryClaimForm(db.sql);
      await applySqlFunctions(db.sql);
    };
    let previous: "on" | "off" | null = null;
    const reportStatements = async (variant: "on" | "off" | null) => {
      await db.sql`create extension if not exists pg_stat_statements`;
      if (variant) {
        const rows = await db.sql<{ query: string; calls: number; us: number }[]>`
          select regexp_replace(left(query, 110), '\\s+', ' ', 'g') as query, calls::int,
                 (total_exec_time * 1000 / ${Number(values.deliveries)})::float8 as us
          from pg_stat_statements where query not ilike '%pg_stat_statements%' order by total_exec_time desc limit 14`;
        say(`  PostgreSQL per attempt, ${variant === "on" ? "this tree" : values.vs} (µs, execution time; nested statements are inside their caller's):`);
        for (const r of rows) say(`    ${r.us.toFixed(1).padStart(7)}  ${String(r.calls).padStart(6)}×  ${r.query}`);
      }
      await db.sql`select pg_stat_statements_reset()`;
    };
    say(`\n== Worker A/B: this tree (on) against ${values.vs} (off, ${other}) ==`);
    const pairs = await measureDeliveryPairs(
      { db, receiver, env, logDir },
      {
        label: "worker",
        pairs: Number(values.pairs),
        deliveries: Number(values.deliveries),
        endpointIds,
        on: {},
        off: {},
        cwd: { off: other },
        prepare: async (variant) => {
          if (statements) await reportStatements(previous);
          previous = variant;
          await applyFunctions(variant === "on" ? process.cwd() : other);
        },
        log: say,
      },
    );
    if (statements) await reportStatements(previous);
    const s = summarizePairs(pairs);
    const probes: number[] = [];
    for (let i = 0; i < Number(values["probe-runs"]); i++) {
      const probe = await runLeanProbe({ databaseUrl: db.url, deliveries: Number(values.deliveries) });
      if ("skipped" in probe) {
        say(`  lean probe skipped: ${probe.skipped}`);
        break;
      }
      probes.push(probe.perSecond);
      say(`  lean probe: ${probe.line}`);
    }
    const probe = probes.length ? [...probes].sort((a, b) => a - b)[Math.floor(probes.length / 2)]! : null;
    const ofProbe = (r: number) => (probe ? ` (${(r / probe).toFixed(2)}× the probe's ${int(probe)}/s)` : "");
    say(`\nthis tree: ${int(s.on)}/s${ofProbe(s.on)}, ${Math.round(s.cpuOn)} µs worker + PostgreSQL CPU per attempt`);
    say(`${values.vs}: ${int(s.off)}/s${ofProbe(s.off)}, ${Math.round(s.cpuOff)} µs`);
    say(`rate this/${values.vs}: median ${s.ratio.toFixed(3)} (${s.minRatio.toFixed(3)}–${s.maxRatio.toFixed(3)}), CPU per attempt ${s.cpuRatio.toFixed(3)}`);
  } finally {
    markShuttingDown();
    await stopAll();
    await receiver.close();
    await db.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});

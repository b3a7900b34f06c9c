import { execFileSync } from "node:child_process";
import { applySqlFunctions } from "../lib/db/functions";
import type { SqlOrTx } from "../lib/db/client";
import type { BenchDatabase } from "./database";
import type { Receiver } from "./receiver";
import { measureDeliveryPairs, type DeliveryPair } from "./delivery-pairs";

/** The claim's own time in PostgreSQL, per claim call and per row it leased (ms, µs). */
export type ClaimTime = { calls: number; msPerCall: number; usPerRow: number };
export type ClaimPairs = { pairs: DeliveryPair[]; time: { on: ClaimTime[]; off: ClaimTime[] } };

const CLAIM = "webhook_admin_claim_deliveries_v2";

const show = (ref: string, file: string) => execFileSync("git", ["show", `${ref}:${file}`], { encoding: "utf8" });

/**
 * The claim's SQL as commit `ref` had it: the one file of the claim before it was split into
 * stages, or, for a later commit, its stages and the function that runs them (in the order
 * lib/db/functions.ts applies them), so a change to one stage (issue 38's scan) can be measured too.
 */
export function claimBodyAt(ref: string): string {
  const body = show(ref, "lib/deliveries/claim-due-deliveries.sql");
  const stages = ["types", "scan-due", "run-budgets", "apply-limits", "log-run-sends", "drop-stopped", "lease", "park"];
  const all = body.includes("webhook_admin_claim_scan_due") ? [...stages.map((stage) => show(ref, `lib/deliveries/claim/${stage}.sql`)), body].join("\n") : body;
  return DROP_EVERY_FORM + "\n" + all + (body.includes("p_kinds") ? "" : laneShim(body));
}

const DROP_EVERY_FORM = `DO $$ DECLARE f regprocedure; BEGIN
  FOR f IN SELECT p.oid::regprocedure FROM pg_proc p WHERE p.proname = '${CLAIM}' AND p.pronamespace = current_schema()::regnamespace LOOP
    EXECUTE 'DROP FUNCTION ' || f;
  END LOOP;
END $$;`;

/** Marks the shim's source, so that its calls are not counted as the claim's own. */
const SHIM_MARK = "bench: lane shim";

/**
 * This tree's worker claims in two lanes (p_kinds: live kinds, then recovery items apart); a claim
 * from before them takes no kinds. The shim lets this tree's worker call it: the live lane's claim
 * becomes the earlier claim of every kind, as that worker's one lane was, and the recovery lane's
 * claims take nothing.
 */
function laneShim(body: string): string {
  const start = body.indexOf("RETURNS TABLE (", body.indexOf(`FUNCTION ${CLAIM}(`));
  let depth = 0;
  let end = start + "RETURNS TABLE ".length;
  for (; end < body.length; end++) {
    if (body[end] === "(") depth++;
    else if (body[end] === ")" && --depth === 0) break;
  }
  return `
CREATE FUNCTION ${CLAIM}(p_limit integer, p_lease_ms integer, p_default_concurrency integer, p_token text, p_lease_wake_at timestamptz,
                         p_kinds smallint[], p_lock_wait_ms integer)
${body.slice(start, end + 1)} LANGUAGE plpgsql AS $shim$ BEGIN
  -- ${SHIM_MARK}
  IF p_kinds IS NULL OR 0::smallint = ANY (p_kinds) THEN
    RETURN QUERY SELECT * FROM ${CLAIM}(p_limit, p_lease_ms, p_default_concurrency, p_token, p_lease_wake_at);
  END IF;
END $shim$;`;
}

/** Every form of the claim function gone, so that whichever tree applies its SQL next has its own alone. */
export async function dropEveryClaimForm(sql: SqlOrTx): Promise<void> {
  await sql.unsafe(DROP_EVERY_FORM);
}

/** This tree's claim in place again, whatever an earlier commit's left (its forms, the shim). */
export async function applyThisTreesClaim(sql: SqlOrTx): Promise<void> {
  await dropEveryClaimForm(sql);
  await applySqlFunctions(sql);
}

/**
 * Part f4: this tree's claim against the claim of an earlier commit (`ref`: by default the one
 * before the claim was split into stages; 8ebb7f7 for the one before fair claiming), in part b's delivery pairs. Both are the same function,
 * webhook_admin_claim_deliveries_v2, with the same arguments and result, so each phase puts its own
 * body in place (CREATE OR REPLACE) before its worker starts — the worker, the queue and the
 * receiver are the same. Besides the delivery rate and CPU per attempt, PostgreSQL's function
 * statistics (track_functions) give the claim's own time per call and per leased row.
 */
export async function measureClaimSplit(
  ctx: { db: BenchDatabase; receiver: Receiver; env: NodeJS.ProcessEnv; logDir: string },
  options: { pairs: number; deliveries: number; endpointIds: string[]; ref: string; log: (line: string) => void },
): Promise<ClaimPairs> {
  const { db } = ctx;
  const before = claimBodyAt(options.ref);
  // For the workers' sessions, which start after this.
  const database = (await db.sql<{ database: string }[]>`select current_database() as database`)[0]!.database;
  await db.sql.unsafe(`alter database "${database}" set track_functions = 'pl'`);
  const time: ClaimPairs["time"] = { on: [], off: [] };
  const claimStats = async () => {
    await db.sql`select pg_stat_clear_snapshot()`;
    const [row] = await db.sql<{ calls: number; total: number }[]>`
      select coalesce(sum(calls), 0)::float8 as calls, coalesce(sum(total_time), 0)::float8 as total
      from pg_stat_user_functions where funcname = ${CLAIM} and funcid not in (select oid from pg_proc where prosrc like ${"%" + SHIM_MARK + "%"})`;
    return row ?? { calls: 0, total: 0 };
  };
  // Each phase's figures are read when the next one is prepared (its worker has stopped by then,
  // and a session's counters reach the statistics when it ends), the last phase's at the end.
  let current: { variant: "on" | "off"; calls: number; total: number; rows: number } | null = null;
  const leasedRows = async () => (await db.sql<{ n: number }[]>`select count(*)::int as n from attempts`)[0]!.n;
  const closePhase = async () => {
    if (!current) return;
    let end = await claimStats();
    for (let i = 0; i < 20 && end.calls === current.calls; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      end = await claimStats();
    }
    const calls = end.calls - current.calls;
    const rows = (await leasedRows()) - current.rows;
    const figure = { calls, msPerCall: (end.total - current.total) / Math.max(1, calls), usPerRow: ((end.total - current.total) * 1000) / Math.max(1, rows) };
    time[current.variant].push(figure);
    options.log(`  claim ${current.variant.padEnd(3)}: ${figure.calls} calls, ${figure.msPerCall.toFixed(2)} ms per call, ${figure.usPerRow.toFixed(1)} µs per leased row`);
    current = null;
  };
  const pairs = await measureDeliveryPairs(ctx, {
    label: "claim",
    pairs: options.pairs,
    deliveries: options.deliveries,
    endpointIds: options.endpointIds,
    log: options.log,
    // On start a worker migrates and applies this tree's SQL functions (MIGRATE_ON_START): that
    // would put this tree's claim back over the one being measured (it did, before 2026-12-06:
    // f4's earlier figures compared this tree's claim with itself).
    on: { MIGRATE_ON_START: "false" },
    off: { MIGRATE_ON_START: "false" },
    prepare: async (variant) => {
      await closePhase();
      if (variant === "on") await applyThisTreesClaim(db.sql);
      else await db.sql.unsafe(before);
      current = { variant, ...(await claimStats()), rows: await leasedRows() };
    },
  });
  await closePhase();
  // Leave this tree's functions in place, and the statistics as they were, for whatever runs next.
  await applyThisTreesClaim(db.sql);
  await db.sql.unsafe(`alter database "${database}" reset track_functions`);
  return { pairs, time };
}

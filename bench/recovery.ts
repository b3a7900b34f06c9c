import type { Api } from "./api";
import type { BenchDatabase } from "./database";
import { newId } from "../lib/ids";
import { measureLatency, type LatencyResult } from "./latency";
import type { Receiver } from "./receiver";
import { sleep } from "./stats";

/**
 * Part e: a recovery of many failed deliveries while live traffic flows. The failures are written
 * by SQL (what an outage leaves behind: deliveries that used up their schedule), so the part
 * measures the run, not a day of retries.
 */
export async function seedFailures(
  db: BenchDatabase,
  input: { consumerId: string; endpointIds: string[]; messages: number; eventType: string },
): Promise<number> {
  const chunk = 2000;
  const since = Date.now() - 3600_000;
  for (let start = 0; start < input.messages; start += chunk) {
    const count = Math.min(chunk, input.messages - start);
    const created = Array.from({ length: count }, (_, i) => new Date(since + Math.floor(((start + i) / input.messages) * 3000_000)));
    const ids = created.map((at) => newId("message", at.getTime()));
    await db.sql`
      insert into messages (id, consumer_id, event_type, payload, created_at)
      select unnest(${ids}::text[]), ${input.consumerId}, ${input.eventType}, '{"bench":"recovery"}', unnest(${created.map((d) => d.toISOString())}::text[])::timestamptz`;
    const deliveryIds = ids.flatMap(() => input.endpointIds.map(() => newId("delivery")));
    await db.sql`
      insert into deliveries (id, message_id, endpoint_id, consumer_id, status, attempts, scheduled_attempts, last_status_code, last_error, created_at, updated_at)
      select d.id, d.message_id, d.endpoint_id, ${input.consumerId}, 'failed', 8, 8, 503, null, m.created_at, m.created_at
      from unnest(${deliveryIds}::text[], ${ids.flatMap((id) => input.endpointIds.map(() => id))}::text[],
                  ${ids.flatMap(() => input.endpointIds)}::text[]) as d(id, message_id, endpoint_id)
      join messages m on m.id = d.message_id`;
  }
  await db.sql`analyze messages`;
  await db.sql`analyze deliveries`;
  return input.messages * input.endpointIds.length;
}

export type RunFigures = {
  createMs: number;
  dryRunMs: number;
  expected: number;
  /** Items per second from the first to the last recovery attempt written. */
  overallRate: number;
  /** The same after the ramp (from the first second at the full rate). */
  steadyRate: number;
  durationMs: number;
  state: string;
  counts: Record<string, number>;
  liveOther: LatencyResult;
  liveSame: LatencyResult;
};

async function recoveryAttempts(db: BenchDatabase): Promise<{ n: number; first: Date | null; last: Date | null }> {
  const [row] = await db.sql<{ n: string; first: Date | null; last: Date | null }[]>`
    select count(*) as n, min(created_at) as first, max(created_at) as last from attempts where trigger = 'recovery'`;
  return { n: Number(row!.n), first: row!.first, last: row!.last };
}

export async function runRecovery(
  ctx: { api: Api; db: BenchDatabase; receiver: Receiver },
  input: { consumer: string; ratePerSecond: number; rampSeconds: number; liveOther: string; liveSame: string; liveCount: number; liveEventType: string },
): Promise<RunFigures> {
  const since = new Date(Date.now() - 2 * 3600_000).toISOString();
  const body = { since, rate_per_second: input.ratePerSecond };
  let started = performance.now();
  const dry = await ctx.api.call("POST", `/api/v1/consumers/${input.consumer}/recover`, { ...body, dry_run: true });
  const dryRunMs = performance.now() - started;
  if (dry.status !== 200) throw new Error(`dry run answered ${dry.status}: ${JSON.stringify(dry.body)}`);
  started = performance.now();
  const created = await ctx.api.call("POST", `/api/v1/consumers/${input.consumer}/recover`, body);
  const createMs = performance.now() - started;
  if (created.status !== 202) throw new Error(`recover answered ${created.status}: ${JSON.stringify(created.body)}`);
  const id = created.body.id as string;
  console.log(`  run ${id}: ${created.body.counts.expected} items frozen in ${Math.round(createMs)} ms; waiting for the ramp to reach ${input.ratePerSecond}/s…`);
  // Live traffic is measured once the run goes at its full rate: its ramp starts after the canary,
  // not at the run's creation (until 2026-12-07 this waited for the ramp's length from the creation
  // and measured beside half the rate).
  const rampDeadline = performance.now() + input.rampSeconds * 3000;
  const currentRate = async () =>
    Number((await ctx.db.sql<{ rate: number | null }[]>`select current_rate as rate from recoveries where id = ${id}`)[0]?.rate ?? 0);
  while ((await currentRate()) < input.ratePerSecond && performance.now() < rampDeadline) await sleep(250);
  await sleep(2000);
  const liveOther = await measureLatency({ api: ctx.api, receiver: ctx.receiver, sql: ctx.db.sql }, { count: input.liveCount, gapMs: 20, consumer: input.liveOther });
  const liveSame = await measureLatency(
    { api: ctx.api, receiver: ctx.receiver, sql: ctx.db.sql },
    { count: input.liveCount, gapMs: 20, consumer: input.liveSame, eventType: input.liveEventType },
  );
  let state = "";
  let counts: Record<string, number> = {};
  for (;;) {
    const run = await ctx.api.call("GET", `/api/v1/recoveries/${id}`);
    state = run.body.state;
    counts = run.body.counts;
    if (state === "completed" || state === "canceled" || state === "paused") break;
    await sleep(1000);
  }
  const attempts = await recoveryAttempts(ctx.db);
  const spanMs = attempts.first && attempts.last ? attempts.last.getTime() - attempts.first.getTime() : 0;
  const steadyFrom = attempts.first ? new Date(attempts.first.getTime() + input.rampSeconds * 1000 + 1000) : null;
  const [steady] = steadyFrom
    ? await ctx.db.sql<{ n: string }[]>`select count(*) as n from attempts where trigger = 'recovery' and created_at >= ${steadyFrom}`
    : [{ n: "0" }];
  const steadyMs = attempts.last && steadyFrom ? attempts.last.getTime() - steadyFrom.getTime() : 0;
  return {
    createMs,
    dryRunMs,
    expected: created.body.counts.expected,
    overallRate: spanMs > 0 ? (attempts.n / spanMs) * 1000 : 0,
    steadyRate: steadyMs > 0 ? (Number(steady!.n) / steadyMs) * 1000 : 0,
    durationMs: spanMs,
    state,
    counts,
    liveOther,
    liveSame,
  };
}

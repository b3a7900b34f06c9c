import { and, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { consumerScope, type Ctx } from "../context";
import { recoveries } from "../db/schema";
import { ID_PREFIXES } from "../ids";
import { findRecoveryRow } from "../recoveries/queries";
import { NotFoundError } from "../errors";
import { findPayloadPurge, type PayloadPurge } from "../retention/purge-payloads";
import { readUsageReport, type UsageReport } from "../stats/usage-report";
import { keyset, ListQuery, scopedIterator } from "./request";

/**
 * Svix background tasks over our recovery runs: an endpoint's `recover` and `replay-missing` are
 * recoveries (`rec_…` ids pass through; the SDKs do not check the `qtask_` prefix). An
 * application's payload purge (message.expungeAllContents) and a usage report
 * (statistics.aggregateAppStats) are too, read by their id (`aud_…`, the audit event that asked
 * for them); the list holds the recoveries alone.
 */
type RecoveryRow = typeof recoveries.$inferSelect;

export const BackgroundTaskOut = z.object({
  id: z.string(),
  status: z.enum(["running", "finished", "failed"]),
  task: z.enum(["endpoint.recover", "endpoint.replay", "application.purge_content", "application.stats"]),
  data: z.union([
    z.object({ messagesSent: z.number() }),
    z.object({ messagesPurged: z.number().nullable() }),
    z.object({ appStats: z.array(z.object({ messageDestinations: z.number(), appId: z.string(), appUid: z.string().nullable() })) }),
  ]),
  updatedAt: z.string(),
});
export type BackgroundTaskOut = z.infer<typeof BackgroundTaskOut>;

/** A run that is still going (planned, canary, running, paused) is `running`; completed is `finished`; canceled is `failed`. */
export function taskStatus(state: RecoveryRow["state"]): BackgroundTaskOut["status"] {
  if (state === "completed") return "finished";
  if (state === "canceled") return "failed";
  return "running";
}

export function toBackgroundTask(row: RecoveryRow): BackgroundTaskOut {
  return {
    id: row.id,
    status: taskStatus(row.state),
    // A replay also sends what the endpoint never got; a recover only what failed.
    task: row.scope.include_never_attempted ? "endpoint.replay" : "endpoint.recover",
    // Sent: handed to the queue, whether or not its attempt has ended.
    data: { messagesSent: row.queued + row.succeeded + row.failed },
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** A payload purge as a task: `messagesPurged` once finished (null while it runs). */
export function purgeTask(purge: PayloadPurge): BackgroundTaskOut {
  return { id: purge.id, status: purge.status, task: "application.purge_content", data: { messagesPurged: purge.messages }, updatedAt: purge.updatedAt.toISOString() };
}

/** A usage report as a task: each application's attempts in its window, as the rollup holds them now. */
function usageTask(report: UsageReport): BackgroundTaskOut {
  const appStats = report.rows.map((row) => ({ messageDestinations: row.attempts, appId: row.consumerId, appUid: row.uid === row.consumerId ? null : row.uid }));
  return { id: report.id, status: "finished", task: "application.stats", data: { appStats }, updatedAt: report.createdAt.toISOString() };
}

export async function getBackgroundTask(ctx: Ctx, id: string): Promise<BackgroundTaskOut> {
  if (!id.startsWith(`${ID_PREFIXES.audit}_`)) return toBackgroundTask(await findRecoveryRow(ctx, id));
  const purge = await findPayloadPurge(ctx, id).catch((error: unknown) => {
    if (error instanceof NotFoundError) return null;
    throw error;
  });
  return purge ? purgeTask(purge) : usageTask(await readUsageReport(ctx, id));
}

const STATES: Record<BackgroundTaskOut["status"], RecoveryRow["state"][]> = {
  running: ["planned", "canary", "running", "paused"],
  finished: ["completed"],
  failed: ["canceled"],
};

export const ListBackgroundTasksQuery = ListQuery.extend({
  status: z.enum(["running", "finished", "failed"]).optional(),
  /** Svix's other kinds of task (stats, broadcasts…) are never ours: an empty list. */
  task: z.string().max(100).optional(),
});

/** Newest first unless `order=ascending`; a portal token sees its own application's. */
export async function listBackgroundTasks(ctx: Ctx, query: z.infer<typeof ListBackgroundTasksQuery>) {
  const scope = consumerScope(ctx);
  const own = scope ? eq(recoveries.consumerId, scope) : undefined;
  const page = keyset(recoveries.id, (await scopedIterator(ctx, recoveries, recoveries, own, query)).query, "descending");
  const replay = sql`coalesce((${recoveries.scope} ->> 'include_never_attempted')::boolean, false)`;
  const kind = query.task === undefined ? undefined : query.task === "endpoint.replay" ? replay : query.task === "endpoint.recover" ? sql`not ${replay}` : sql`false`;
  const rows = await ctx.db
    .select()
    .from(recoveries)
    .where(and(page.where, own, query.status ? inArray(recoveries.state, STATES[query.status]) : undefined, kind))
    .orderBy(...page.orderBy)
    .limit(page.limit);
  return page.page(rows, (row) => row.id, toBackgroundTask);
}

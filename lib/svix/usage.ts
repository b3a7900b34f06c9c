import { z } from "zod";
import type { Ctx } from "../context";
import { requestUsageReport } from "../stats/usage-report";
import { SvixTime } from "./request";

/**
 * Svix's usage statistics (statistics.aggregateAppStats) over our stats rollup: a background task
 * `application.stats` whose `data.appStats` gives each application's `messageDestinations` — its
 * attempts in the window — read from the rollup when the task is read. It is finished when asked.
 */
export const AppUsageStatsIn = z.object({
  since: SvixTime,
  until: SvixTime,
  /** Ids or uids; none: every application. */
  appIds: z.array(z.string().min(1).max(256)).max(1_000).nullish(),
});

export const AppUsageStatsOut = z.object({
  id: z.string(),
  status: z.literal("finished"),
  task: z.literal("application.stats"),
  unresolvedAppIds: z.array(z.string()),
  updatedAt: z.string(),
});

export async function aggregateAppStats(ctx: Ctx, input: z.infer<typeof AppUsageStatsIn>): Promise<z.infer<typeof AppUsageStatsOut>> {
  const asked = await requestUsageReport({ ctx, since: input.since, until: input.until, refs: input.appIds?.length ? [...new Set(input.appIds)] : null });
  return { id: asked.id, status: "finished", task: "application.stats", unresolvedAppIds: asked.unresolved, updatedAt: asked.createdAt.toISOString() };
}

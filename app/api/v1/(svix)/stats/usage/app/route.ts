import { json } from "@/lib/http/request";
import { svixMethods, svixRoute } from "@/lib/svix/route";
import { aggregateAppStats, AppUsageStatsIn, AppUsageStatsOut } from "@/lib/svix/usage";

export const POST = svixRoute(async ({ ctx, body }) => json(await aggregateAppStats(ctx, body), 202), {
  body: AppUsageStatsIn,
  portal: false,
  role: "read",
  doc: {
    operationId: "svixAggregateAppStats",
    summary: "Usage by application over a window (Svix: statistics.aggregateAppStats)",
    description:
      "A background task `application.stats`, finished at once: GET /background-task/{id} answers `data.appStats`, each application's attempts in the window " +
      "(`messageDestinations`) from the stats rollup — those of `appIds` (ids or uids; the others in `unresolvedAppIds`, 422 when none resolves), or every application.",
    body: { schema: AppUsageStatsIn },
    success: { status: 202, description: "The task.", schema: AppUsageStatsOut },
  },
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = svixMethods({ POST });

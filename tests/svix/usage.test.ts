import { describe, expect, it } from "vitest";
import { getSql } from "../../lib/db/client";
import { apiError, sdkServer, SDKS, type Sdk } from "./sdks";

/**
 * Svix's usage statistics (statistics.aggregateAppStats) through both SDKs: a task, finished when
 * asked, whose `appStats` are each application's attempts in the window, from the stats rollup —
 * its folded hours and minutes and the rows appended and not yet folded alike.
 */
const server = sdkServer();
const HOUR = 3_600_000;

/** Rollup rows for a consumer, as the outcome writer and the compaction leave them: folded hourly and minute rows, and an appended one. */
async function attempts(consumerId: string, endpointId: string, { hourAgo, minutesAgo, pending }: { hourAgo: number; minutesAgo: number; pending: number }) {
  const sql = getSql();
  const now = Date.now();
  const hour = new Date(Math.floor((now - 2 * HOUR) / HOUR) * HOUR);
  const minute = new Date(Math.floor((now - 10 * 60_000) / 60_000) * 60_000);
  // The compaction keeps each attempt by the minute and by the hour: the minutes' hour holds them too.
  const minutesHour = new Date(Math.floor(minute.getTime() / HOUR) * HOUR);
  await sql`
    insert into attempt_stats (scope, bucket_seconds, t, attempts, succeeded, failed, latency_buckets, latency_counts)
    values (${consumerId}, 3600, ${hour}, ${hourAgo}, ${hourAgo}, 0, '{}', '{}'),
           (${consumerId}, 60, ${minute}, ${minutesAgo}, 0, ${minutesAgo}, '{}', '{}'),
           (${consumerId}, 3600, ${minutesHour}, ${minutesAgo}, 0, ${minutesAgo}, '{}', '{}')`;
  await sql`
    insert into attempt_stats_pending (endpoint_id, consumer_id, minute, attempts, succeeded, failed, latency_buckets, latency_counts)
    values (${endpointId}, ${consumerId}, ${new Date(Math.floor(now / 60_000) * 60_000)}, ${pending}, ${pending}, 0, '{}', '{}')`;
}

describe.each(SDKS.map((sdk) => [sdk.name, sdk] as const))("%s", (name, sdk: Sdk) => {
  const svix = () => server.client(sdk);
  const tag = name.replace(/\W/g, "").toLowerCase();

  it("answers each application's attempts in the window, from the rollup, as a finished task", async () => {
    const busy = await svix().application.create({ name: "Busy", uid: `usage-busy-${tag}` });
    const quiet = await svix().application.create({ name: "Quiet", uid: `usage-quiet-${tag}` });
    const endpoint = await svix().endpoint.create(busy.id, { url: "http://127.0.0.1:9/usage" });
    await attempts(busy.id, endpoint.id, { hourAgo: 7, minutesAgo: 3, pending: 2 });

    const since = new Date(Date.now() - 3 * HOUR);
    const until = new Date(Date.now() + 60_000);
    const task = await svix().statistics.aggregateAppStats({ since, until, appIds: [busy.uid!, quiet.id, `nobody-${tag}`] });
    expect(task).toMatchObject({ status: "finished", task: "application.stats", unresolvedAppIds: [`nobody-${tag}`] });
    const done = await svix().backgroundTask.get(task.id);
    expect(done).toMatchObject({ id: task.id, status: "finished", task: "application.stats" });
    const stats = (done.data as { appStats: { appId: string; appUid: string | null; messageDestinations: number }[] }).appStats;
    expect(stats.sort((a, b) => a.appId.localeCompare(b.appId))).toEqual(
      [
        { appId: busy.id, appUid: `usage-busy-${tag}`, messageDestinations: 12 },
        { appId: quiet.id, appUid: `usage-quiet-${tag}`, messageDestinations: 0 },
      ].sort((a, b) => a.appId.localeCompare(b.appId)),
    );

    // A window that leaves the hour out counts only what falls in it.
    const recent = await svix().statistics.aggregateAppStats({ since: new Date(Date.now() - 30 * 60_000), until, appIds: [busy.id] });
    expect(((await svix().backgroundTask.get(recent.id)).data as { appStats: { messageDestinations: number }[] }).appStats).toEqual([
      { appId: busy.id, appUid: `usage-busy-${tag}`, messageDestinations: 5 },
    ]);
  });

  it("refuses appIds none of which is an application, and a window that ends before it starts", async () => {
    const none = await apiError(sdk, svix().statistics.aggregateAppStats({ since: new Date(Date.now() - HOUR), until: new Date(), appIds: [`ghost-${tag}`] }));
    expect(none.code).toBe(422);
    expect(none.body.detail[0].loc).toEqual(["body", "appIds"]);
    const backwards = await apiError(sdk, svix().statistics.aggregateAppStats({ since: new Date(), until: new Date(Date.now() - HOUR) }));
    expect(backwards.code).toBe(422);
    expect(backwards.body.detail[0].loc).toEqual(["body", "since"]);
  });
});

import { beforeAll, describe, expect, it } from "vitest";
import { getSql } from "../../lib/db/client";
import { loggedAttempt } from "../helpers/attempt-row";
import { apiError, sdkServer, SDKS } from "./sdks";

/**
 * What a Svix credential's reads may cost and see: list iterators scoped to the caller's lists,
 * `with_content=false` reading no payload, endpoint stats from the rollup over a bounded window.
 * Through the 2.x SDK (the server's behaviour is the same for 1.x; both are tested elsewhere).
 */
const sdk = SDKS[1];
const server = sdkServer();
const svix = (bearer?: string) => server.client(sdk, bearer);

// Ids sort by creation time: B's "old" objects are older than A's, its "new" endpoint newer.
let appA = "";
let appB = "";
let portalA = "";
const a = { endpoint: "", message: "", attempt: "", task: "" };
const b = { oldEndpoint: "", newEndpoint: "", message: "", attempt: "", task: "" };
const since = () => new Date(Date.now() - 3_600_000);

beforeAll(async () => {
  appA = (await svix().application.create({ name: "A", uid: "reads-a" })).id;
  appB = (await svix().application.create({ name: "B", uid: "reads-b" })).id;
  b.oldEndpoint = (await svix().endpoint.create(appB, { url: "http://127.0.0.1:9/b-old" })).id;
  b.message = (await svix().message.create(appB, { eventType: "invoice.paid", payload: { tenant: "b" } })).id;
  b.attempt = await loggedAttempt(b.message, b.oldEndpoint);
  b.task = (await svix().endpoint.recover(appB, b.oldEndpoint, { since: since() })).id;
  a.endpoint = (await svix().endpoint.create(appA, { url: "http://127.0.0.1:9/a" })).id;
  a.message = (await svix().message.create(appA, { eventType: "invoice.paid", payload: { tenant: "a" } })).id;
  a.attempt = await loggedAttempt(a.message, a.endpoint);
  a.task = (await svix().endpoint.recover(appA, a.endpoint, { since: since() })).id;
  b.newEndpoint = (await svix().endpoint.create(appB, { url: "http://127.0.0.1:9/b-new" })).id;
  portalA = (await svix().authentication.appPortalAccess(appA, {})).token!;
});

type Page = { data: { id: string }[] };

describe("Svix list iterators", () => {
  // Every Svix list that takes an iterator, with another application's object of the kind it lists,
  // on the side of A's own that would hide them if it moved the page. Event types are one catalog
  // for every caller, paged by name without a lookup: not here.
  const lists: [string, () => string, (iterator?: string) => Promise<Page>][] = [
    ["application.list (portal token)", () => appB, (iterator) => svix(portalA).application.list({ iterator })],
    ["endpoint.list", () => b.oldEndpoint, (iterator) => svix().endpoint.list(appA, { iterator })],
    ["message.list", () => b.message, (iterator) => svix().message.list(appA, { iterator })],
    ["messageAttempt.listByMsg", () => b.attempt, (iterator) => svix().messageAttempt.listByMsg(appA, a.message, { iterator })],
    ["messageAttempt.listByEndpoint", () => b.attempt, (iterator) => svix().messageAttempt.listByEndpoint(appA, a.endpoint, { iterator })],
    ["messageAttempt.listAttemptedMessages", () => b.message, (iterator) => svix().messageAttempt.listAttemptedMessages(appA, a.endpoint, { iterator })],
    ["messageAttempt.listAttemptedDestinations", () => b.newEndpoint, (iterator) => svix().messageAttempt.listAttemptedDestinations(appA, a.message, { iterator })],
    ["backgroundTask.list (portal token)", () => b.task, (iterator) => svix(portalA).backgroundTask.list({ iterator })],
  ];

  it.each(lists)("%s: another application's id does not move the page", async (_name, foreign, list) => {
    const first = await list();
    expect(first.data.length).toBeGreaterThan(0);
    const ids = first.data.map((item) => item.id);
    expect((await list(foreign())).data.map((item) => item.id)).toEqual(ids);
    expect((await list(`-${foreign()}`)).data.map((item) => item.id)).toEqual(ids);
  });
});

/** Makes a column unreadable for the length of `read`: a query that names it fails. */
async function without<T>(table: string, column: string, read: () => Promise<T>): Promise<T> {
  const sql = getSql();
  await sql.unsafe(`alter table ${table} rename column ${column} to ${column}_hidden`);
  try {
    return await read();
  } finally {
    await sql.unsafe(`alter table ${table} rename column ${column}_hidden to ${column}`);
  }
}

describe("Svix with_content", () => {
  it("answers payloads by default, as Svix does", async () => {
    const [message] = (await svix().message.list(appA, { withContent: true })).data;
    expect(message!.payload).toEqual({ tenant: "a" });
  });

  it("reads no payload or response from the database without content", async () => {
    // The 2.x SDK sends with_content=false unless told otherwise.
    const messages = await without("messages", "payload", () => svix().message.list(appA));
    expect(messages.data.map((m) => [m.id, m.payload])).toEqual([[a.message, {}]]);
    const attempted = await without("messages", "payload", () => svix().messageAttempt.listAttemptedMessages(appA, a.endpoint));
    expect(attempted.data.map((m) => m.payload)).toEqual([{}]);
    const attempts = await without("attempts", "response_body", () => svix().messageAttempt.listByMsg(appA, a.message));
    expect(attempts.data.map((t) => [t.id, t.response])).toEqual([[a.attempt, "{}"]]);
    const withMsg = await without("messages", "payload", () => svix().messageAttempt.listByEndpoint(appA, a.endpoint, { withMsg: true }));
    expect(withMsg.data[0]!.msg?.payload).toEqual({});
  });
});

describe("Svix endpoint stats", () => {
  it("counts the window's attempts from the rollup, and its queue", async () => {
    const hour = Math.floor(Date.now() / 3_600_000) * 3_600_000;
    const minute = Math.floor(Date.now() / 60_000) * 60_000;
    const sql = getSql();
    // Folded rows (an hour two hours ago, a minute now) and one still appended; none is an attempt row.
    await sql`insert into attempt_stats (scope, bucket_seconds, t, attempts, succeeded, failed, latency_buckets, latency_counts) values
      (${a.endpoint}, 3600, ${new Date(hour - 2 * 3_600_000)}, 5, 4, 1, '{10}', '{5}'),
      (${a.endpoint}, 60, ${new Date(minute)}, 2, 1, 1, '{10}', '{2}')`;
    await sql`insert into attempt_stats_pending (endpoint_id, consumer_id, minute, attempts, succeeded, failed, latency_buckets, latency_counts)
      values (${a.endpoint}, ${appA}, ${new Date(minute)}, 3, 3, 0, '{10}', '{3}')`;
    const stats = await svix().endpoint.getStats(appA, a.endpoint);
    // A's one message waits in the queue, never tried.
    expect(stats).toMatchObject({ success: 8, fail: 2, pending: 1, sending: 0, canceled: 0 });
    // A window ending before the minute rows holds the hour alone.
    const earlier = await svix().endpoint.getStats(appA, a.endpoint, { since: new Date(hour - 3 * 3_600_000), until: new Date(hour - 3_600_000) });
    expect(earlier).toMatchObject({ success: 4, fail: 1 });
  });

  it("refuses a window over 28 days, or ending in the future, 400 invalid_range, as Svix does", async () => {
    const wide = await apiError(sdk, svix().endpoint.getStats(appA, a.endpoint, { since: new Date(0) }));
    expect(wide.code).toBe(400);
    expect(wide.body.code).toBe("invalid_range");
    const future = await apiError(sdk, svix().endpoint.getStats(appA, a.endpoint, { until: new Date(Date.now() + 3_600_000) }));
    expect(future.body.code).toBe("invalid_range");
    // 28 days back from now is Svix's default, and allowed.
    await expect(svix().endpoint.getStats(appA, a.endpoint, { since: new Date(Date.now() - 28 * 86_400_000) })).resolves.toMatchObject({ canceled: 0 });
  });
});

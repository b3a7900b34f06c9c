import { beforeAll, describe, expect, it } from "vitest";
import { getSql } from "../../lib/db/client";
import { listMessages } from "../../lib/messages";
import { apiClient, type Api } from "../helpers/api";
import { createConsumer, createEndpoint, sendMessage } from "../helpers/fixtures";
import { runReceiver, waitFor } from "../helpers/receiver";
import { settled } from "../helpers/settled";
import { runTestWorker } from "../helpers/worker";
import { openCtx } from "../../lib/open-ctx";

// Two attempts, so a delivery fails quickly; no breaker or auto-disable in the way.
process.env.DELIVERY_SCHEDULE = "0,50ms";
process.env.CIRCUIT_FAILURE_THRESHOLD = "1000";

let api: Api;
/** Paths the receiver fails; every other path answers 204. */
const failing = new Set<string>();
const ids = { acme: "", globex: "", acmeOne: "", acmeTwo: "", globexOne: "" };
const sent: Record<string, string> = {};

const send = async (consumer: string, name: string, eventType = "invoice.paid") => {
  sent[name] = (await sendMessage(api, consumer, { event_type: eventType, payload: { name } })).id;
  // Each message its own millisecond, so the since/until cases below have one answer.
  await waitFor(async () => (await getSql()`select 1 from messages where id = ${sent[name]!} and created_at < now()`).length === 1);
};

/** What `status=failed` must list: every message with a failed delivery, by the deliveries table itself. */
async function expected(filter: { consumer?: string; endpoint?: string; eventType?: string } = {}) {
  const rows = await getSql()<{ id: string }[]>`
    select m.id from messages m
    where exists (select 1 from deliveries d where d.message_id = m.id and d.status = 'failed'
                  ${filter.endpoint ? getSql()`and d.endpoint_id = ${filter.endpoint}` : getSql()``})
      ${filter.consumer ? getSql()`and m.consumer_id = ${filter.consumer}` : getSql()``}
      ${filter.eventType ? getSql()`and m.event_type = ${filter.eventType}` : getSql()``}
    order by m.created_at desc, m.id desc`;
  return rows.map((r) => r.id);
}

/** Every page of the API's `status=failed` list, one message a page, so the keyset is walked. */
async function listed(query = "") {
  const found: string[] = [];
  let cursor: string | null = null;
  do {
    const res = await api.get(`/api/v1/messages?status=failed&limit=1${query}${cursor ? `&cursor=${cursor}` : ""}`);
    expect(res.status).toBe(200);
    found.push(...res.body.data.map((m: { id: string }) => m.id));
    cursor = res.body.next_cursor as string | null;
  } while (cursor);
  return found;
}

const tracked = async () =>
  (await getSql()<{ n: number; wrong: number }[]>`
    select count(*)::int as n,
           count(*) filter (where d.status is distinct from 'failed' or f.message_created_at <> m.created_at
                              or (f.message_id, f.endpoint_id, f.consumer_id) <> (d.message_id, d.endpoint_id, d.consumer_id))::int as wrong
    from failed_deliveries f left join deliveries d on d.id = f.delivery_id left join messages m on m.id = f.message_id`)[0]!;
const failedCount = async () => (await getSql()<{ n: number }[]>`select count(*)::int as n from deliveries where status = 'failed'`)[0]!.n;

async function settleAll() {
  for (const id of [ids.acmeOne, ids.acmeTwo, ids.globexOne]) await settled(id);
}

// Before the set-up below, which waits for the worker to settle what it sends.
runTestWorker();
const receiver = runReceiver((req, res) => res.writeHead(failing.has(req.url ?? "/") ? 500 : 204).end());
beforeAll(async () => {
  api = await apiClient();
  for (const uid of ["acme", "globex"] as const) ids[uid] = (await createConsumer(api, { uid })).id;
  ids.acmeOne = (await createEndpoint(api, "acme", `${receiver.url}/acme-one`)).id;
  ids.acmeTwo = (await createEndpoint(api, "acme", `${receiver.url}/acme-two`, { event_types: ["invoice.paid"] })).id;
  ids.globexOne = (await createEndpoint(api, "globex", `${receiver.url}/globex-one`)).id;

  failing.add("/acme-one").add("/acme-two").add("/globex-one");
  await send("acme", "both-fail"); // fails at both of acme's endpoints: listed once
  await send("acme", "refund", "invoice.refunded"); // acme-one only (acme-two takes invoice.paid)
  await send("globex", "globex-fails");
  await settleAll();
  failing.delete("/acme-two");
  await send("acme", "one-of-two"); // fails at acme-one, succeeds at acme-two
  await settleAll();
  failing.clear();
  await send("acme", "all-good");
  await settleAll();
});

describe("status=failed", () => {
  it("keeps one row per failed delivery, matching the delivery it stands for", async () => {
    expect(await failedCount()).toBe(5);
    expect(await tracked()).toEqual({ n: 5, wrong: 0 });
  });

  it("lists what the deliveries say, newest first, each message once, over every page and filter", async () => {
    const cases: [string, Parameters<typeof expected>[0]][] = [
      ["", {}],
      [`&consumer=acme`, { consumer: ids.acme }],
      [`&consumer=globex`, { consumer: ids.globex }],
      [`&endpoint_id=${ids.acmeOne}`, { endpoint: ids.acmeOne }],
      [`&endpoint_id=${ids.acmeTwo}`, { endpoint: ids.acmeTwo }],
      [`&consumer=acme&endpoint_id=${ids.acmeTwo}`, { consumer: ids.acme, endpoint: ids.acmeTwo }],
      [`&event_type=invoice.refunded`, { eventType: "invoice.refunded" }],
      [`&consumer=globex&event_type=invoice.refunded`, { consumer: ids.globex, eventType: "invoice.refunded" }],
    ];
    for (const [query, filter] of cases) expect(await listed(query), query).toEqual(await expected(filter));
    expect(await listed()).toEqual([sent["one-of-two"], sent["globex-fails"], sent.refund, sent["both-fail"]]);
    expect(await listed(`&endpoint_id=${ids.acmeTwo}`)).toEqual([sent["both-fail"]]);
    expect(await listed(`&payload_contains=${encodeURIComponent('{"name": "refund"}')}`)).toEqual([sent.refund]);
    // The time window is the message's.
    const [refund] = await getSql()<{ at: Date }[]>`select created_at as at from messages where id = ${sent.refund!}`;
    expect(await listed(`&until=${encodeURIComponent(refund!.at.toISOString())}`)).toEqual([sent["both-fail"]]);
    expect(await listed(`&since=${encodeURIComponent(refund!.at.toISOString())}`)).toEqual([sent["one-of-two"], sent["globex-fails"], sent.refund]);
  });

  it("shows a portal session its own consumer's failures only", async () => {
    const ctx = openCtx({ type: "portal" as const, id: "ps_test", consumerId: ids.globex, capabilities: [] });
    const page = await listMessages(ctx, { status: "failed", limit: 50 });
    expect(page.data.map((m) => m.id)).toEqual([sent["globex-fails"]]);
    // Naming another consumer does not widen it.
    await expect(listMessages(ctx, { status: "failed", limit: 50, consumer: "acme" })).rejects.toMatchObject({ status: 404 });
  });

  it("follows every way into failed and out: a resend that fails, one to a new endpoint, one that succeeds, a recovery, a deleted endpoint", async () => {
    // A resend that fails again leaves the delivery failed and listed.
    failing.add("/acme-one");
    expect((await api.post(`/api/v1/messages/${sent.refund}/resend`, { endpoint_id: ids.acmeOne })).status).toBe(202);
    await settled(ids.acmeOne);
    expect(await listed(`&consumer=acme`)).toContain(sent.refund);
    // A resend to an endpoint that never had the message makes its delivery, failed until it succeeds.
    failing.add("/acme-two");
    expect((await api.post(`/api/v1/messages/${sent.refund}/resend`, { endpoint_id: ids.acmeTwo })).status).toBe(202);
    await settled(ids.acmeTwo);
    expect(await listed(`&endpoint_id=${ids.acmeTwo}`)).toEqual([sent.refund, sent["both-fail"]]);
    failing.clear();

    // A resend that succeeds takes it off the list.
    expect((await api.post(`/api/v1/messages/${sent.refund}/resend`, { endpoint_id: ids.acmeOne })).status).toBe(202);
    await waitFor(async () => !(await listed(`&endpoint_id=${ids.acmeOne}`)).includes(sent.refund!), { what: "the resent delivery to leave the list" });
    expect(await listed(`&consumer=acme`)).toContain(sent.refund); // still failed at acme-two

    // A recovery over globex's endpoint, likewise.
    const since = new Date(Date.now() - 3_600_000).toISOString();
    const run = await api.post(`/api/v1/endpoints/${ids.globexOne}/recover`, { since, canary: 0 });
    expect(run.status).toBe(202);
    await waitFor(async () => (await api.get(`/api/v1/recoveries/${run.body.id}`)).body.state === "completed", { what: "the recovery" });
    expect(await listed(`&consumer=globex`)).toEqual([]);

    // Deleting an endpoint takes its failed deliveries with it; the message stays listed for the other.
    expect((await api.del(`/api/v1/endpoints/${ids.acmeTwo}`)).status).toBe(204);
    expect(await listed()).toEqual([sent["one-of-two"], sent["both-fail"]]);
    expect(await listed()).toEqual(await expected());
    expect(await tracked()).toEqual({ n: await failedCount(), wrong: 0 });
  });
});

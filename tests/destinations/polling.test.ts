/**
 * Polling endpoints (ADR 0048): nothing is sent; the consumer reads its messages through a cursor
 * with a token scoped to the endpoint, each message with the Standard Webhooks headers a push would
 * have carried. What a poll gives past the committed position is logged as `polled`; an endpoint
 * nobody polls is alerted on like a failing one.
 */
import { Webhook } from "standardwebhooks";
import { beforeAll, describe, expect, it } from "vitest";
import { resetConfigForTests } from "../../lib/config";
import { getSql } from "../../lib/db/client";
import { sweep } from "../../lib/maintenance/sweep";
import { systemCtx } from "../../lib/open-ctx";
import { encodeCursor, positionAt, waitingPolls } from "../../lib/polling";
import { APP_ORIGIN } from "../helpers/origin";
import { apiClient, clientFor, call, expectProblem, handle, type Api } from "../helpers/api";
import { createConsumer, createEndpoint, endpointSecret, sendMessage } from "../helpers/fixtures";
import { portalSession } from "../helpers/portal";
import { waitFor } from "../helpers/receiver";

// Messages are given at once (a test writes one message at a time; the settle window is for
// concurrent ingests, ADR 0048); a long-poll waits long enough that only a wake-up ends it in a test.
process.env.POLL_SETTLE = "0";
process.env.POLL_WAIT = "20s";
process.env.ALERT_FAILING_AFTER = "300ms";

let api: Api;

beforeAll(async () => {
  resetConfigForTests();
  api = await apiClient();
});

/** A consumer with one polling endpoint (`fields` as POST /consumers/{c}/endpoints takes them) and a token for it. */
async function pollingEndpoint(fields: Record<string, unknown> = {}) {
  const { uid, id: consumerId } = await createConsumer(api, {}, "poll");
  const created = await api.post(`/api/v1/consumers/${uid}/endpoints`, { kind: "polling", ...fields });
  expect(created.status, created.text).toBe(201);
  const token = await api.post(`/api/v1/endpoints/${created.body.id}/poll-tokens`);
  expect(token.status, token.text).toBe(201);
  return { uid, consumerId, id: created.body.id as string, token: token.body.token as string, tokenId: token.body.id as string };
}

type Page = { data: { id: string; event_type: string; payload: any; body: string; created_at: string; headers: Record<string, string> }[]; cursor: string; done: boolean };

/** GET /endpoints/{id}/poll with a poll token. */
function poll(endpointId: string, token: string | null, query: Record<string, string | number> = {}) {
  const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
  return call<Page>("GET", `/api/v1/endpoints/${endpointId}/poll?${search}`, { key: token });
}

/** Every page from `cursor` until done: the ids in the order given. */
async function pollAll(endpointId: string, token: string, limit: number, cursor?: string): Promise<{ ids: string[]; cursor: string }> {
  const ids: string[] = [];
  for (;;) {
    const page = await poll(endpointId, token, { limit, ...(cursor ? { cursor } : {}) });
    expect(page.status, page.text).toBe(200);
    ids.push(...page.body.data.map((m) => m.id));
    cursor = page.body.cursor;
    if (page.body.done) return { ids, cursor };
  }
}

describe("a polling endpoint", () => {
  it("is created with kind polling and no url; its kind stays", async () => {
    const { uid } = await createConsumer(api, {}, "poll");
    const made = await api.post(`/api/v1/consumers/${uid}/endpoints`, { kind: "polling", event_types: ["invoice.paid"] });
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({ kind: "polling", url: "", target: null, event_types: ["invoice.paid"] });
    expectProblem(await api.post(`/api/v1/consumers/${uid}/endpoints`, { kind: "polling", url: "https://example.com/hook" }), 422, "validation_failed", "url");
    expectProblem(await api.patch(`/api/v1/endpoints/${made.body.id}`, { kind: "http", url: "https://example.com/hook" }), 422, "validation_failed", "kind");
    // Nothing is sent to it: no delivery at ingest; a test send, a resend and a recovery say so.
    const message = await sendMessage(api, uid);
    expect(message.deliveries).toBe(0);
    expectProblem(await api.post(`/api/v1/endpoints/${made.body.id}/test`, {}), 409, "polling_endpoint");
    expectProblem(await api.post(`/api/v1/endpoints/${made.body.id}/recover`, { since: "2020-01-01T00:00:00Z" }), 409, "polling_endpoint");
    expectProblem(await api.post(`/api/v1/messages/${message.id}/resend`, { endpoint_id: made.body.id }), 409, "polling_endpoint");
    const http = await createEndpoint(api, uid, "https://example.com/hook");
    expectProblem(await api.patch(`/api/v1/endpoints/${http.id}`, { kind: "polling" }), 422, "validation_failed", "kind");
    // Poll tokens are for polling endpoints only.
    expectProblem(await api.post(`/api/v1/endpoints/${http.id}/poll-tokens`), 409, "not_polling");
  });

  it("gives its messages in creation order, by its event types and payload filter, page by page with the cursor", async () => {
    const ep = await pollingEndpoint({ event_types: ["invoice.paid", "invoice.voided"], filter: { "data.amount": { $gte: 10 } } });
    const wanted: string[] = [];
    for (let i = 0; i < 12; i++) {
      const type = i % 3 === 0 ? "user.created" : i % 3 === 1 ? "invoice.paid" : "invoice.voided";
      const amount = i % 4 === 0 ? 5 : 50;
      const { id } = await sendMessage(api, ep.uid, { event_type: type, payload: { data: { amount, i } } });
      if (type !== "user.created" && amount >= 10) wanted.push(id);
    }
    expect(wanted.length).toBeGreaterThan(3);

    const first = await poll(ep.id, ep.token, { limit: 2 });
    expect(first.status, first.text).toBe(200);
    expect(first.body.data.map((m) => m.id)).toEqual(wanted.slice(0, 2));
    expect(first.body.done).toBe(false);
    expect(first.body.data[0]).toMatchObject({ event_type: expect.stringMatching(/^invoice\./), payload: { data: { amount: 50 } } });

    // From the first page's cursor, the rest; a page at a time of 3.
    const rest = await pollAll(ep.id, ep.token, 3, first.body.cursor);
    expect(rest.ids).toEqual(wanted.slice(2));
    // Caught up: an old cursor gives the same again, the last one nothing (after a wait cut short by the client).
    expect((await pollAll(ep.id, ep.token, 100)).ids).toEqual(wanted);
    const aborter = new AbortController();
    const pending = handle(new Request(new URL(`/api/v1/endpoints/${ep.id}/poll?cursor=${rest.cursor}`, APP_ORIGIN), { headers: { authorization: `Bearer ${ep.token}` }, signal: aborter.signal }));
    await waitFor(() => waitingPolls() > 0, { what: "the long-poll to wait" });
    aborter.abort();
    const ended = await pending;
    expect(ended.status).toBe(200);
    expect(await ended.json()).toMatchObject({ data: [], done: true, cursor: rest.cursor });
    expect(waitingPolls()).toBe(0);
  });

  it("signs each message as an HTTP delivery is signed: standardwebhooks verifies it with the endpoint's secret", async () => {
    const ep = await pollingEndpoint();
    const sent = await sendMessage(api, ep.uid, { payload: { text: "héllo", n: [1, 2.5, { deep: null }] } });
    const page = await poll(ep.id, ep.token);
    const [message] = page.body.data;
    expect(message!.id).toBe(sent.id);
    expect(message!.headers["webhook-id"]).toBe(sent.id);
    const secret = await endpointSecret(api, ep.id);
    const verified = new Webhook(secret).verify(message!.body, message!.headers);
    expect(verified).toEqual({ text: "héllo", n: [1, 2.5, { deep: null }] });
    // In JavaScript the parsed payload serialises back to the same bytes.
    expect(JSON.stringify(message!.payload)).toBe(message!.body);
    expect(() => new Webhook("whsec_" + Buffer.alloc(32, 7).toString("base64")).verify(message!.body, message!.headers)).toThrow();
    expect(() => new Webhook(secret).verify(message!.body.replace("héllo", "hello"), message!.headers)).toThrow();
  });

  it("wakes a waiting long-poll when a message comes", async () => {
    const ep = await pollingEndpoint();
    const waiting = poll(ep.id, ep.token);
    await waitFor(() => waitingPolls() > 0, { what: "the long-poll to wait" });
    const sent = await sendMessage(api, ep.uid);
    const page = await waiting;
    expect(page.status, page.text).toBe(200);
    expect(page.body.data.map((m) => m.id)).toEqual([sent.id]);
  });

  it("gives a message only once it is POLL_SETTLE old: a long-poll looks again when it has settled", async () => {
    process.env.POLL_SETTLE = "400ms";
    resetConfigForTests();
    try {
      const ep = await pollingEndpoint();
      const sent = await sendMessage(api, ep.uid);
      // Asked at once: nothing yet to give, and no wake-up will come for a message already written.
      const page = await poll(ep.id, ep.token);
      expect(page.body.data.map((m) => m.id)).toEqual([sent.id]);
      expect(Date.now() - Date.parse(page.body.data[0]!.created_at)).toBeGreaterThanOrEqual(400);
    } finally {
      process.env.POLL_SETTLE = "0";
      resetConfigForTests();
    }
  });

  it("refuses a malformed cursor (400), one before retention (410), a bad token (401) and another endpoint's token (404)", async () => {
    const ep = await pollingEndpoint();
    const other = await pollingEndpoint();
    // An empty cursor is none, as the contract's `?cursor=&limit=` (and the portal's curl) send it.
    const first = await sendMessage(api, ep.uid);
    const fromStart = await poll(ep.id, ep.token, { cursor: "", limit: 100 });
    expect(fromStart.status, fromStart.text).toBe(200);
    expect(fromStart.body.data.map((m) => m.id)).toEqual([first.id]);
    expectProblem(await poll(ep.id, ep.token, { cursor: "not-a-cursor!" }), 400, "invalid_cursor");
    expectProblem(await poll(ep.id, ep.token, { cursor: Buffer.from("1:evt_123").toString("base64url") }), 400, "invalid_cursor");
    const expired = encodeCursor(positionAt(Date.now() - 31 * 86_400_000));
    const gone = await poll(ep.id, ep.token, { cursor: expired });
    expectProblem(gone, 410, "cursor_expired");
    expect((gone.body as unknown as { detail: string }).detail).toMatch(/RETENTION_PERIOD/);
    expectProblem(await poll(ep.id, null), 401, "unauthorized");
    expectProblem(await poll(ep.id, "ept_unknown"), 401, "unauthorized");
    // An API key is not a poll token.
    expectProblem(await poll(ep.id, api.key), 401, "unauthorized");
    expectProblem(await poll(other.id, ep.token), 404, "not_found");
    // Revoked: 401 from then on.
    expect((await api.del(`/api/v1/endpoints/${ep.id}/poll-tokens/${ep.tokenId}`)).status).toBe(204);
    expectProblem(await poll(ep.id, ep.token), 401, "unauthorized");
    expectProblem(await api.del(`/api/v1/endpoints/${ep.id}/poll-tokens/${ep.tokenId}`), 404, "not_found");
    // Disabled: nobody reads it until it is enabled.
    expect((await api.post(`/api/v1/endpoints/${other.id}/disable`)).status).toBe(200);
    expectProblem(await poll(other.id, other.token), 409, "endpoint_disabled");
  });

  it("logs what a poll gives past the committed position as polled, once, in the attempt log, the message and the stats", async () => {
    const ep = await pollingEndpoint();
    const ids = [(await sendMessage(api, ep.uid)).id, (await sendMessage(api, ep.uid)).id, (await sendMessage(api, ep.uid)).id];
    const before = await api.get(`/api/v1/endpoints/${ep.id}/poll-status`);
    expect(before.body).toMatchObject({ last_polled_at: null, position: null, lag_messages: 3, lag_capped: false });

    expect((await pollAll(ep.id, ep.token, 2)).ids).toEqual(ids);
    // Read again from the start: given, not counted again.
    expect((await pollAll(ep.id, ep.token, 10)).ids).toEqual(ids);

    const attempts = await api.get(`/api/v1/attempts?endpoint_id=${ep.id}`);
    expect(attempts.body.data).toHaveLength(3);
    for (const attempt of attempts.body.data) expect(attempt).toMatchObject({ trigger: "polled", status_code: null, error: null, response_body: "polled" });
    const message = await api.get(`/api/v1/messages/${ids[0]}`);
    expect(message.body.deliveries).toEqual([expect.objectContaining({ endpoint_id: ep.id, status: "succeeded", attempts: 1 })]);
    const stats = await api.get(`/api/v1/endpoints/${ep.id}/stats`);
    expect(stats.body).toMatchObject({ attempts: 3, succeeded: 3, failed: 0, polled: 3 });

    const after = await api.get(`/api/v1/endpoints/${ep.id}/poll-status`);
    expect(after.body).toMatchObject({ position: { message_id: ids[2] }, lag_messages: 0, lag_seconds: null, tokens: [{ id: ep.tokenId, last_used_at: expect.any(String) }] });
    expect(after.body.last_polled_at).not.toBeNull();
  });

  it("gives ten concurrent pollers every message once each, in order, and counts each message once", async () => {
    const ep = await pollingEndpoint();
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) ids.push((await sendMessage(api, ep.uid, { payload: { i } })).id);
    const tokens = [ep.token];
    for (let i = 1; i < 10; i++) tokens.push((await api.post(`/api/v1/endpoints/${ep.id}/poll-tokens`)).body.token);
    const seen = await Promise.all(tokens.map((token, n) => pollAll(ep.id, token, 3 + n)));
    for (const { ids: got } of seen) expect(got).toEqual(ids);
    const [counted] = await getSql()<{ n: number }[]>`select count(*)::int as n from attempts where endpoint_id = ${ep.id} and trigger = 'polled'`;
    expect(counted!.n).toBe(25);
  });

  it("alerts endpoint.failing for an endpoint nobody polled for ALERT_FAILING_AFTER; a poll ends it with endpoint.recovered", async () => {
    const ep = await pollingEndpoint();
    const alertsFor = async (kind: string) => {
      const jobs = await getSql()<{ payload: { alerts: { kind: string; endpoint_id: string }[] } }[]>`
        select j.payload from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = 'send_alerts'`;
      return jobs.flatMap((j) => j.payload.alerts).filter((a) => a.endpoint_id === ep.id && a.kind === kind);
    };
    // The sweep runs until the endpoint's creation is ALERT_FAILING_AFTER behind.
    await waitFor(async () => (await sweep({ ctx: systemCtx() })).failing.includes(ep.id), { what: "the sweep to find it unpolled", interval: 100 });
    expect(await alertsFor("endpoint.failing")).toHaveLength(1);
    expect((await api.get(`/api/v1/endpoints/${ep.id}`)).body.failing_since).not.toBeNull();
    await sweep({ ctx: systemCtx() });
    expect(await alertsFor("endpoint.failing")).toHaveLength(1);

    await sendMessage(api, ep.uid);
    expect((await poll(ep.id, ep.token, { limit: 1 })).body.data).toHaveLength(1);
    expect((await api.get(`/api/v1/endpoints/${ep.id}`)).body).toMatchObject({ failing_since: null, state: "active" });
    expect(await alertsFor("endpoint.recovered")).toHaveLength(1);
  });

  it("is a portal session's to poll and to read the state of, for its own consumer only", async () => {
    const mine = await pollingEndpoint();
    const theirs = await pollingEndpoint();
    const portal = clientFor((await portalSession(api, mine.uid)).token);
    const token = await portal.post(`/api/v1/endpoints/${mine.id}/poll-tokens`);
    expect(token.status, token.text).toBe(201);
    const sent = await sendMessage(api, mine.uid);
    expect((await poll(mine.id, token.body.token)).body.data.map((m) => m.id)).toEqual([sent.id]);
    expect((await portal.get(`/api/v1/endpoints/${mine.id}/poll-status`)).body.tokens).toHaveLength(2);
    expectProblem(await portal.post(`/api/v1/endpoints/${theirs.id}/poll-tokens`), 404, "not_found");
    expectProblem(await portal.get(`/api/v1/endpoints/${theirs.id}/poll-status`), 404, "not_found");
    expectProblem(await portal.del(`/api/v1/endpoints/${theirs.id}/poll-tokens/${theirs.tokenId}`), 404, "not_found");
  });
});

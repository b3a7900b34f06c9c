import { beforeAll, describe, expect, it } from "vitest";
import { getSql } from "../../lib/db/client";
import { apiClient, type Api } from "../helpers/api";
import { createConsumer, createEndpoint, sendMessage } from "../helpers/fixtures";
import { runReceiver, waitFor } from "../helpers/receiver";
import { runTestWorker } from "../helpers/worker";
import { captureLogs } from "../helpers/log-capture";

/** Payload filters per endpoint (docs/delivery.md#payload-filters): checked when written, applied at fan-out. */
process.env.DELIVERY_SCHEDULE = "0,100ms";

let api: Api;
beforeAll(async () => {
  api = await apiClient();
});
const receiver = runReceiver();
const logs = captureLogs("warn");
runTestWorker();
const sql = () => getSql();

const BIG_YEN = { "data.amount": { $gte: 1000 }, "data.currency": { $in: ["JPY", "USD"] } };
const arrived = (messageId: string, path: string) => receiver.received.some((r) => r.headers["webhook-id"] === messageId && r.path === path);
const deliveriesOf = async (messageId: string) =>
  (await sql()<{ endpoint_id: string }[]>`select endpoint_id from deliveries where message_id = ${messageId} order by endpoint_id`).map((d) => d.endpoint_id);

/** A consumer with a filtered endpoint and an unfiltered one on the receiver, at paths of their own. */
async function consumerWithFilter(filter: object = BIG_YEN, fields: Record<string, unknown> = {}) {
  const { uid } = await createConsumer(api, {}, "filters");
  const filtered = await createEndpoint(api, uid, `${receiver.url}/${uid}/filtered`, { filter, ...fields });
  const open = await createEndpoint(api, uid, `${receiver.url}/${uid}/open`);
  return { uid, filtered, open };
}

describe("an endpoint's filter, as the API takes and answers it", () => {
  it("is stored as given, answered by GET, replaced and cleared by PATCH ({} counts as none)", async () => {
    const { filtered } = await consumerWithFilter();
    expect(filtered.filter).toEqual(BIG_YEN);
    expect((await api.get(`/api/v1/endpoints/${filtered.id}`)).body.filter).toEqual(BIG_YEN);
    const other = { $or: [{ event_type: "refund.created" }, { "data.amount": { $lt: 0 } }] };
    expect((await api.patch(`/api/v1/endpoints/${filtered.id}`, { filter: other })).body.filter).toEqual(other);
    expect((await api.patch(`/api/v1/endpoints/${filtered.id}`, { filter: {} })).body.filter).toBeNull();
    await api.patch(`/api/v1/endpoints/${filtered.id}`, { filter: other });
    expect((await api.patch(`/api/v1/endpoints/${filtered.id}`, { filter: null })).body.filter).toBeNull();
  });

  it.each([
    ["an unknown operator", { "data.amount": { $between: [1, 2] } }, "/filter/data.amount/$between", /unknown operator/],
    ["a regex", { "data.name": { $regex: "^a" } }, "/filter/data.name/$regex", /regular expressions are not allowed/],
    ["a wrong operand", { "data.amount": { $in: 5 } }, "/filter/data.amount/$in", /takes an array/],
    ["51 conditions", { $and: Array.from({ length: 51 }, (_, i) => ({ [`f${i}`]: i })) }, "/filter/$and/50/f50", /more than 50 conditions/],
    ["11 levels", JSON.parse(`${'{"$not":'.repeat(10)}{"a":1}${"}".repeat(10)}`), expect.stringMatching(/^\/filter(\/\$not)+$/), /more than 10 objects deep/],
    ["over 4 KiB", { "data.note": "x".repeat(4100) }, "/filter", /at most 4096/],
  ])("refuses %s with 422 invalid_filter and its pointer, on create and on update, and changes nothing", async (_what, filter, pointer, message) => {
    const { uid, filtered } = await consumerWithFilter();
    const created = await api.post(`/api/v1/consumers/${uid}/endpoints`, { url: `${receiver.url}/${uid}/bad`, filter });
    expect(created.status).toBe(422);
    expect(created.headers.get("content-type")).toContain("application/problem+json");
    expect(created.body).toMatchObject({ code: "invalid_filter", errors: [{ path: "filter", pointer, message: expect.stringMatching(message) }] });
    const updated = await api.patch(`/api/v1/endpoints/${filtered.id}`, { filter, description: "changed?" });
    expect(updated.status).toBe(422);
    expect(updated.body.code).toBe("invalid_filter");
    const now = (await api.get(`/api/v1/endpoints/${filtered.id}`)).body;
    expect(now).toMatchObject({ filter: BIG_YEN, description: "" });
    expect((await api.get(`/api/v1/consumers/${uid}/endpoints`)).body.data).toHaveLength(2);
  });

  it("refuses a filter that is not an object as any invalid field", async () => {
    const { filtered } = await consumerWithFilter();
    for (const filter of ["data.amount > 5", [BIG_YEN], 7]) {
      const res = await api.patch(`/api/v1/endpoints/${filtered.id}`, { filter });
      expect(res.status).toBe(422);
      expect(res.body.errors[0].path).toBe("filter");
    }
  });
});

describe("fan-out through a filter", () => {
  it("creates no delivery where the filter refuses the message, delivers where it passes, and says which endpoints filtered it", async () => {
    const { uid, filtered, open } = await consumerWithFilter();
    const passes = await sendMessage(api, uid, { payload: { data: { amount: 1500, currency: "JPY" } } });
    const refused = await sendMessage(api, uid, { payload: { data: { amount: 999, currency: "JPY" } } });
    expect(passes.deliveries).toBe(2);
    expect(refused.deliveries).toBe(1);
    expect(await deliveriesOf(refused.id)).toEqual([open.id]);

    await waitFor(() => arrived(passes.id, `/${uid}/filtered`) && arrived(passes.id, `/${uid}/open`) && arrived(refused.id, `/${uid}/open`), { what: "the three deliveries" });
    expect(arrived(refused.id, `/${uid}/filtered`)).toBe(false);

    const detail = (await api.get(`/api/v1/messages/${refused.id}`)).body;
    expect(detail.filtered).toEqual([{ endpoint_id: filtered.id, endpoint: { id: filtered.id, url: filtered.url, description: "" } }]);
    expect(detail.deliveries.map((d: { endpoint_id: string }) => d.endpoint_id)).toEqual([open.id]);
    expect((await api.get(`/api/v1/messages/${passes.id}`)).body.filtered).toEqual([]);
  });

  it("reads the event type, arrays and missing fields as the rules say", async () => {
    const { uid, filtered } = await consumerWithFilter({ $or: [{ event_type: "refund.created" }, { "data.tags": "vip", "data.cancelled_at": { $exists: false } }] });
    const cases: [string, unknown, boolean][] = [
      ["refund.created", { data: {} }, true],
      ["invoice.paid", { data: { tags: ["jp", "vip"] } }, true],
      ["invoice.paid", { data: { tags: ["vip"], cancelled_at: "2026-12-01" } }, false],
      ["invoice.paid", { data: { tags: "jp" } }, false],
    ];
    for (const [eventType, payload, delivered] of cases) {
      const message = await sendMessage(api, uid, { event_type: eventType, payload });
      expect((await deliveriesOf(message.id)).includes(filtered.id), `${eventType} ${JSON.stringify(payload)}`).toBe(delivered);
    }
  });

  it("filters each message of a batch on its own", async () => {
    const { uid, filtered, open } = await consumerWithFilter();
    const res = await api.post("/api/v1/messages/batch", {
      messages: [1500, 10, 2000, 5].map((amount) => ({ consumer: uid, event_type: "invoice.paid", payload: { data: { amount, currency: "USD" } } })),
    });
    expect(res.status).toBe(200);
    const ids = res.body.data.map((r: { message: { id: string } }) => r.message.id);
    expect(res.body.data.map((r: { message: { deliveries: number } }) => r.message.deliveries)).toEqual([2, 1, 2, 1]);
    for (const [i, id] of ids.entries()) {
      expect(await deliveriesOf(id)).toEqual([filtered.id, open.id].filter((ep) => ep === open.id || i % 2 === 0).sort());
      expect((await api.get(`/api/v1/messages/${id}`)).body.filtered.map((f: { endpoint_id: string }) => f.endpoint_id)).toEqual(i % 2 === 0 ? [] : [filtered.id]);
    }
  });

  it("applies to messages sent through the Svix surface too", async () => {
    const { uid, filtered, open } = await consumerWithFilter();
    const res = await api.post(`/api/v1/app/${uid}/msg`, { eventType: "invoice.paid", payload: { data: { amount: 1, currency: "JPY" } } });
    expect(res.status).toBe(202);
    expect(await deliveriesOf(res.body.id)).toEqual([open.id]);
    expect((await api.get(`/api/v1/messages/${res.body.id}`)).body.filtered.map((f: { endpoint_id: string }) => f.endpoint_id)).toEqual([filtered.id]);
  });

  it("lets a test send through whatever the filter says: the endpoint was named", async () => {
    const { uid, filtered } = await consumerWithFilter();
    const res = await api.post(`/api/v1/endpoints/${filtered.id}/test`, { payload: { data: { amount: 1 } } });
    expect(res.status).toBe(202);
    await waitFor(() => arrived(res.body.message_id, `/${uid}/filtered`), { what: "the test send" });
  });

  it("takes a changed filter from the next message on", async () => {
    const { uid, filtered } = await consumerWithFilter();
    const before = await sendMessage(api, uid, { payload: { data: { amount: 1, currency: "JPY" } } });
    await api.patch(`/api/v1/endpoints/${filtered.id}`, { filter: { "data.amount": { $lt: 10 } } });
    const after = await sendMessage(api, uid, { payload: { data: { amount: 1, currency: "JPY" } } });
    expect((await deliveriesOf(before.id)).includes(filtered.id)).toBe(false);
    expect((await deliveriesOf(after.id)).includes(filtered.id)).toBe(true);
  });

  it("delivers, and logs a warning, where a stored filter cannot be run (written past the checks)", async () => {
    const { uid, filtered } = await consumerWithFilter();
    // The version bumped as a PATCH bumps it, so this process's compiled copy is read again.
    await sql()`update endpoints set filter = '{"data.amount": {"$where": "1"}}', filter_version = filter_version + 1 where id = ${filtered.id}`;
    const message = await sendMessage(api, uid, { payload: { data: { amount: 1, currency: "JPY" } } });
    expect((await deliveriesOf(message.id)).includes(filtered.id)).toBe(true);
    expect(logs.text()).toContain("payload filter not applied");
    expect(logs.text()).toContain(filtered.id);
  });
});

describe("POST /endpoints/{id}/filter/test", () => {
  it("says which of the endpoint's last messages a filter would let through, newest first, and changes nothing", async () => {
    const { uid, filtered } = await consumerWithFilter(BIG_YEN, { event_types: ["invoice.paid"] });
    const amounts = [5, 5000, 700, 1200];
    const sent: string[] = [];
    for (const amount of amounts) sent.push((await sendMessage(api, uid, { payload: { data: { amount, currency: "JPY" } } })).id);
    // Another event type: not the endpoint's, so not among its messages.
    await sendMessage(api, uid, { event_type: "order.created", payload: { data: { amount: 9999 } } });
    const res = await api.post(`/api/v1/endpoints/${filtered.id}/filter/test`, { filter: { "data.amount": { $gt: 1000 } } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.results).toEqual(
      [...sent].reverse().map((id, i) => ({ message_id: id, event_type: "invoice.paid", created_at: expect.any(String), delivered: [...amounts].reverse()[i]! > 1000 })),
    );
    expect((await api.post(`/api/v1/endpoints/${filtered.id}/filter/test`, { filter: null })).body.results.every((r: { delivered: boolean }) => r.delivered)).toBe(true);
    expect((await api.get(`/api/v1/endpoints/${filtered.id}`)).body.filter).toEqual(BIG_YEN);
  });

  it("tries at most the 20 newest", async () => {
    const { uid, filtered } = await consumerWithFilter();
    const res = await api.post("/api/v1/messages/batch", {
      messages: Array.from({ length: 25 }, (_, i) => ({ consumer: uid, event_type: "invoice.paid", payload: { data: { amount: i } } })),
    });
    expect(res.status).toBe(200);
    const tried = await api.post(`/api/v1/endpoints/${filtered.id}/filter/test`, { filter: { "data.amount": { $gte: 20 } } });
    expect(tried.body.results).toHaveLength(20);
    expect(tried.body.results.filter((r: { delivered: boolean }) => r.delivered)).toHaveLength(5);
  });

  it("answers a bad filter as a write would, and an unknown endpoint 404", async () => {
    const { filtered } = await consumerWithFilter();
    const bad = await api.post(`/api/v1/endpoints/${filtered.id}/filter/test`, { filter: { a: { $where: "1" } } });
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ code: "invalid_filter", errors: [{ pointer: "/filter/a/$where" }] });
    expect((await api.post(`/api/v1/endpoints/${filtered.id}/filter/test`, {})).status).toBe(422);
    expect((await api.post(`/api/v1/endpoints/ep_nope/filter/test`, { filter: null })).status).toBe(404);
  });
});

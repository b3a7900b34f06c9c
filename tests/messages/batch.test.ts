import { beforeAll, describe, expect, it } from "vitest";
import { getSql } from "../../lib/db/client";
import { apiClient, type Api } from "../helpers/api";
import { withEnv } from "../helpers/env";
import { createConsumer, createEndpoint, sendMessage } from "../helpers/fixtures";
import { runReceiver, waitFor } from "../helpers/receiver";
import { runTestWorker } from "../helpers/worker";

/** POST /messages/batch: up to 100 messages in one call, each answered (and refused) on its own. */
process.env.DELIVERY_SCHEDULE = "0,100ms";
process.env.DELIVERY_TIMEOUT = "2s";

let api: Api;

beforeAll(async () => {
  api = await apiClient();
});
const receiver = runReceiver();
runTestWorker();

const sql = () => getSql();

/** A consumer with one endpoint on the receiver (event types: all, or those given). */
async function consumer(eventTypes?: string[]) {
  const { uid } = await createConsumer(api, {}, "batch");
  const ep = await createEndpoint(api, uid, `${receiver.url}/${uid}`, eventTypes ? { event_types: eventTypes } : {});
  return { uid, endpointId: ep.id };
}

const batch = (messages: unknown[]) => api.post("/api/v1/messages/batch", { messages });
const countMessages = async (consumerUid: string) =>
  (await sql()<{ n: number }[]>`select count(*)::int as n from messages m join consumers c on c.id = m.consumer_id where c.uid = ${consumerUid}`)[0]!.n;
const arrivalsFor = (id: string) => receiver.received.filter((r) => r.headers["webhook-id"] === id).length;

describe("POST /messages/batch", () => {
  it("accepts each message as POST /messages does, in one transaction, and the worker delivers them all", async () => {
    const a = await consumer();
    const b = await consumer(["order.created"]);
    const items = [
      { consumer: a.uid, event_type: "invoice.paid", payload: { n: 1 } },
      { consumer: b.uid, event_type: "order.created", payload: { n: 2 }, event_id: "evt_2" },
      { consumer: b.uid, event_type: "invoice.paid", payload: { n: 3 } },
      { consumer: a.uid, event_type: "invoice.paid", payload: { n: 4 } },
    ];
    const res = await batch(items);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toHaveLength(4);
    res.body.data.forEach((result: unknown, i: number) => {
      expect(result).toEqual({
        status: 202,
        message: {
          id: expect.stringMatching(/^msg_/),
          consumer_id: expect.stringMatching(/^con_/),
          event_type: items[i]!.event_type,
          event_id: items[i]!.event_id ?? null,
          created_at: expect.any(String),
          deliveries: expect.any(Number),
        },
      });
    });
    const messages = res.body.data.map((r: { message: Record<string, unknown> }) => r.message);
    expect(messages.map((m: { event_type: string }) => m.event_type)).toEqual(items.map((i) => i.event_type));
    expect(messages[1]).toMatchObject({ event_id: "evt_2", deliveries: 1 });
    // b's endpoint takes order.created only: the third message has no delivery.
    expect(messages.map((m: { deliveries: number }) => m.deliveries)).toEqual([1, 1, 0, 1]);
    // Ids sort in the order sent (lists are newest first by created_at, then id).
    const ids = messages.map((m: { id: string }) => m.id);
    expect([...ids].sort()).toEqual(ids);

    // One transaction wrote them all: one transaction id on every row.
    const xids = await sql()<{ n: number }[]>`select count(distinct xmin::text)::int as n from messages where id = any(${ids}::text[])`;
    expect(xids[0]!.n).toBe(1);

    for (const id of [ids[0], ids[1], ids[3]]) await waitFor(() => arrivalsFor(id) === 1, { what: `delivery of ${id}` });
    const got = receiver.received.find((r) => r.headers["webhook-id"] === ids[1])!;
    expect(JSON.parse(got.body)).toEqual({ n: 2 });
    const read = await api.get(`/api/v1/messages/${ids[0]}`);
    expect(read.body).toMatchObject({ id: ids[0], payload: { n: 1 }, consumer_id: messages[0].consumer_id });
  });

  it("refuses an invalid message alone, with its own problem, and writes the rest", async () => {
    const { uid } = await consumer();
    const other = await consumer();
    // A key already used by POST /messages: the same body replays it, another conflicts.
    const first = await sendMessage(api, other.uid, { event_type: "a.b", payload: { k: 1 } }, { "idempotency-key": `hdr-${uid}` });
    await withEnv({ MAX_PAYLOAD_BYTES: "1000" }, async () => {
      const res = await batch([
        { consumer: uid, event_type: "a.b", payload: { ok: 1 } },
        { consumer: "nobody-here", event_type: "a.b", payload: {} },
        { consumer: uid, event_type: "bad type!", payload: {} },
        { consumer: uid, event_type: "a.b", payload: { big: "x".repeat(2000) } },
        { consumer: uid, event_type: "a.b", payload: [1, 2] },
        { consumer: uid, event_type: "a.b", payload: {}, extra: true },
        "not an object",
        { consumer: uid, event_type: "a.b", payload: {}, idempotency_key: "has space" },
        { consumer: other.uid, event_type: "a.b", payload: { k: 2 }, idempotency_key: `hdr-${uid}` },
        { consumer: other.uid, event_type: "a.b", payload: { k: 1 }, idempotency_key: `hdr-${uid}` },
        { consumer: uid, event_type: "a.b", payload: { ok: 2 }, event_id: "a\u0000b" },
        { consumer: uid, event_type: "a.b", payload: { ok: 3, nul: "\u0000" } },
      ]);
      expect(res.status, res.text).toBe(200);
      const statuses = res.body.data.map((r: { status: number }) => r.status);
      expect(statuses).toEqual([202, 404, 422, 413, 422, 422, 422, 422, 409, 202, 422, 202]);
      const codes = res.body.data.map((r: { error?: { code: string } }) => r.error?.code ?? null);
      expect(codes).toEqual([
        null,
        "not_found",
        "validation_failed",
        "payload_too_large",
        "validation_failed",
        "validation_failed",
        "validation_failed",
        "validation_failed",
        "idempotency_conflict",
        null,
        "validation_failed",
        null,
      ]);
      expect(res.body.data[1].error.detail).toMatch(/nobody-here/);
      expect(res.body.data[2].error.errors).toEqual([expect.objectContaining({ path: "event_type" })]);
      expect(res.body.data[7].error.errors).toEqual([expect.objectContaining({ path: "idempotency_key" })]);
      expect(res.body.data[10].error.errors).toEqual([expect.objectContaining({ path: "event_id" })]);
      expect(res.body.data[9]).toEqual({ status: 202, message: first, replayed: true });
      expect(res.body.data[0].replayed).toBeUndefined();
    });
    // Written: the two valid new messages; nothing of the others.
    expect(await countMessages(uid)).toBe(2);
    expect(await countMessages(other.uid)).toBe(1);
  });

  it("replays a batch with the same ids and sends nothing twice", async () => {
    const { uid } = await consumer();
    const items = Array.from({ length: 5 }, (_, i) => ({ consumer: uid, event_type: "order.created", payload: { i }, idempotency_key: `${uid}-order-${i}` }));
    const first = await batch(items);
    expect(first.body.data.every((r: { status: number; replayed?: boolean }) => r.status === 202 && r.replayed === undefined)).toBe(true);
    const ids = first.body.data.map((r: { message: { id: string } }) => r.message.id);
    for (const id of ids) await waitFor(() => arrivalsFor(id) === 1, { what: "first delivery" });

    const again = await batch(items);
    expect(again.body.data).toEqual(first.body.data.map((r: object) => ({ ...r, replayed: true })));
    // One new key among replays: only that one is written.
    const more = await batch([...items, { consumer: uid, event_type: "order.created", payload: { i: 5 }, idempotency_key: `${uid}-order-5` }]);
    expect(more.body.data.map((r: { replayed?: boolean }) => r.replayed ?? false)).toEqual([true, true, true, true, true, false]);
    expect(await countMessages(uid)).toBe(6);
    // The same key as the header's: POST /messages replays a batch item too.
    const single = await api.post("/api/v1/messages", { consumer: uid, event_type: "order.created", payload: { i: 0 } }, { "idempotency-key": `${uid}-order-0` });
    expect(single.status).toBe(202);
    expect(single.headers.get("idempotent-replayed")).toBe("true");
    expect(single.body).toEqual(first.body.data[0].message);

    await waitFor(() => arrivalsFor(more.body.data[5].message.id) === 1, { what: "the new message" });
    // Nothing was sent twice (a replay is never a second send).
    for (const id of ids) expect(arrivalsFor(id)).toBe(1);
  });

  it("answers a key given twice in one call as the first message's replay, or a conflict for another body", async () => {
    const { uid } = await consumer();
    const res = await batch([
      { consumer: uid, event_type: "a.b", payload: { n: 1 }, idempotency_key: `${uid}-dup` },
      { consumer: uid, event_type: "a.b", payload: { n: 1 }, idempotency_key: `${uid}-dup` },
      { consumer: uid, event_type: "a.b", payload: { n: 2 }, idempotency_key: `${uid}-dup` },
    ]);
    expect(res.body.data.map((r: { status: number }) => r.status)).toEqual([202, 202, 409]);
    expect(res.body.data[1]).toEqual({ ...res.body.data[0], replayed: true });
    expect(await countMessages(uid)).toBe(1);
  });

  it("creates one message per key when two identical batches race, and both answers name the same ids", async () => {
    const { uid } = await consumer();
    const items = Array.from({ length: 50 }, (_, i) => ({ consumer: uid, event_type: "race.ran", payload: { i }, idempotency_key: `${uid}-race-${i}` }));
    const [one, two] = await Promise.all([batch(items), batch(items)]);
    expect(one!.status).toBe(200);
    expect(two!.status).toBe(200);
    const idsOf = (res: typeof one) => res!.body.data.map((r: { status: number; message: { id: string } }) => (r.status === 202 ? r.message.id : `status ${r.status}`));
    expect(idsOf(one)).toEqual(idsOf(two));
    expect(new Set(idsOf(one)).size).toBe(50);
    expect(await countMessages(uid)).toBe(50);
    // Each item was written by one of the two calls and replayed by the other.
    const replays = [...one!.body.data, ...two!.body.data].filter((r: { replayed?: boolean }) => r.replayed).length;
    expect(replays).toBe(50);
    for (const id of idsOf(one)) await waitFor(() => arrivalsFor(id) === 1, { what: "each raced message once" });
    for (const id of idsOf(one)) expect(arrivalsFor(id)).toBe(1);
  });

  it("refuses the call as a whole for a body that is not 1–100 messages, or too large, and writes nothing", async () => {
    const { uid } = await consumer();
    const item = { consumer: uid, event_type: "a.b", payload: {} };
    const raw = (rawBody: string) => api.raw("POST", "/api/v1/messages/batch", { key: api.key, rawBody, headers: { "content-type": "application/json" } });
    const cases: [Awaited<ReturnType<typeof raw>>, number, string][] = [
      [await raw("{"), 422, "invalid_json"],
      [await raw(""), 422, "invalid_json"],
      [await raw("{}"), 422, "validation_failed"],
      [await raw(JSON.stringify({ messages: "many" })), 422, "validation_failed"],
      [await raw(JSON.stringify({ messages: [] })), 422, "validation_failed"],
      [await raw(JSON.stringify({ messages: Array.from({ length: 101 }, () => item) })), 422, "validation_failed"],
      [await raw(JSON.stringify({ messages: [item], more: 1 })), 422, "validation_failed"],
      [await raw(JSON.stringify([item])), 422, "validation_failed"],
    ];
    for (const [res, status, code] of cases) {
      expect(res.status, res.text).toBe(status);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
      expect(res.body.code).toBe(code);
    }
    // 100 is allowed.
    const hundred = await batch(Array.from({ length: 100 }, (_, i) => ({ ...item, payload: { i } })));
    expect(hundred.status).toBe(200);
    expect(hundred.body.data).toHaveLength(100);
    expect(await countMessages(uid)).toBe(100);

    await withEnv({ MAX_BATCH_BYTES: "2000" }, async () => {
      const tooBig = await raw(JSON.stringify({ messages: Array.from({ length: 20 }, (_, i) => ({ ...item, payload: { i, pad: "x".repeat(100) } })) }));
      expect(tooBig.status).toBe(413);
      expect(tooBig.body.code).toBe("payload_too_large");
      expect(tooBig.headers.get("connection")).toBe("close");
    });
    expect(await countMessages(uid)).toBe(100);
  });
});

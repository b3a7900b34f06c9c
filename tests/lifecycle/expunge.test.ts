import { describe, expect, it } from "vitest";
import { getSql } from "../../lib/db/client";
import { call } from "../helpers/api";
import { consumerWithEndpoint, sendMessage } from "../helpers/fixtures";
import { lifecycleFixture } from "../helpers/lifecycle";
import { startReceiver, waitFor } from "../helpers/receiver";
import { operatorClient } from "../helpers/session";
import { APP_ORIGIN } from "../helpers/origin";

/**
 * DELETE /messages/{id}/payload: the payload's bytes are gone from the table, the message and its
 * log stay, nothing can send it again (a pending delivery is canceled, a resend is 409, a recovery
 * skips it), and bad input is problem+json.
 */
process.env.DELIVERY_SCHEDULE = "0,1h";
process.env.CIRCUIT_FAILURE_THRESHOLD = "1000";
process.env.RECOVERY_TICK = "50ms";
process.env.RECOVERY_RAMP_EVERY = "1ms";

const t = lifecycleFixture();
let seq = 0;
const sql = () => getSql();
const SECRET = "card-4242-4242";

const send = async (uid: string) => (await sendMessage(t.api, uid, { payload: { card: SECRET, n: ++seq } })).id;

const deliveryOf = async (messageId: string) =>
  (await sql()<{ status: string; last_error: string | null; attempts: number }[]>`select status, last_error, attempts from deliveries where message_id = ${messageId}`)[0]!;

const expunge = (messageId: string) => t.api.del(`/api/v1/messages/${messageId}/payload`);

describe("DELETE /messages/{id}/payload", () => {
  it("removes the payload's bytes and keeps the message and its log; GET answers payload null with payload_expunged_at", async () => {
    const { uid } = await consumerWithEndpoint(t.api, t.ok.url, { prefix: "exp" });
    const id = await send(uid);
    await waitFor(async () => (await deliveryOf(id)).status === "succeeded", { what: "the delivery" });
    const before = await t.api.get(`/api/v1/messages/${id}`);
    expect(before.body).toMatchObject({ payload: { card: SECRET }, payload_expunged_at: null });

    const res = await expunge(id);
    expect(res.status, res.text).toBe(204);
    expect(res.text).toBe("");
    // Not hidden: gone from the row.
    const [row] = await sql()<{ payload: string; payload_expunged_at: Date | null }[]>`select payload, payload_expunged_at from messages where id = ${id}`;
    expect(row!.payload).toBe("");
    expect(row!.payload_expunged_at).toBeInstanceOf(Date);
    const [search] = await sql()<{ n: number }[]>`select count(*)::int as n from messages where payload like ${`%${SECRET}%`} and id = ${id}`;
    expect(search!.n).toBe(0);

    const after = await t.api.get(`/api/v1/messages/${id}`);
    expect(after.status).toBe(200);
    expect(after.body.payload).toBeNull();
    expect(new Date(after.body.payload_expunged_at).getTime()).toBe(row!.payload_expunged_at!.getTime());
    // The message, its deliveries and its attempts stay.
    expect(after.body.deliveries).toEqual([expect.objectContaining({ status: "succeeded" })]);
    expect((await t.api.get(`/api/v1/messages/${id}/attempts`)).body.data).toHaveLength(1);
    expect(after.text).not.toContain(SECRET);
    // A payload search no longer finds it.
    const found = await t.api.get(`/api/v1/messages?consumer=${uid}&payload_contains=${encodeURIComponent(JSON.stringify({ card: SECRET }))}`);
    expect(found.body.data).toEqual([]);
    // Audited, naming no payload.
    const audit = await t.api.get(`/api/v1/audit-events?target_id=${id}`);
    expect(audit.body.data.map((e: { action: string }) => e.action)).toContain("message.payload_expunged");
    expect(audit.text).not.toContain(SECRET);
  });

  it("rewrites the Svix API's kept answer too: a replay of its Idempotency-Key answers the same message, its payload expired", async () => {
    const { uid } = await consumerWithEndpoint(t.api, t.ok.url, { prefix: "exp" });
    // The svix SDKs send an Idempotency-Key with every POST; the first answer is kept and replayed.
    const key = `exp-svix-${++seq}`;
    const first = await t.api.post(`/api/v1/app/${uid}/msg`, { eventType: "invoice.paid", payload: { card: SECRET, via: "svix" } }, { "idempotency-key": key });
    expect(first.status, first.text).toBe(202);
    expect(first.body.payload).toEqual({ card: SECRET, via: "svix" });
    const id: string = first.body.id;
    // Asked without content, the kept answer holds no payload and is left as it is.
    const bare = await t.api.post(`/api/v1/app/${uid}/msg?with_content=false`, { eventType: "invoice.paid", payload: { card: SECRET } }, { "idempotency-key": `${key}-bare` });
    expect(bare.body.payload).toEqual({});

    expect((await expunge(id)).status).toBe(204);
    const kept = await sql()<{ body: string }[]>`select body from api_idempotency where message_id = ${id}`;
    expect(kept).toHaveLength(1);
    expect(kept[0]!.body).not.toContain(SECRET);
    const replay = await t.api.post(`/api/v1/app/${uid}/msg`, { eventType: "invoice.paid", payload: { card: SECRET, via: "svix" } }, { "idempotency-key": key });
    expect(replay.status).toBe(202);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toMatchObject({ id, payload: { expired: true } });
    // As the message itself now answers.
    expect((await t.api.get(`/api/v1/app/${uid}/msg/${id}`)).body.payload).toEqual({ expired: true });
    const [messages] = await sql()<{ n: number }[]>`select count(*)::int as n from messages where payload like ${`%${SECRET}%`} and consumer_id = (select id from consumers where uid = ${uid})`;
    expect(messages!.n).toBe(1); // the bare one's, not expunged
  });

  it("empties its attempts' response bodies, which a receiver may have echoed the payload in; their status and timing stay", async () => {
    const echo = await startReceiver((_req, res, body) => res.writeHead(200).end(`received ${body}`));
    try {
      const { uid } = await consumerWithEndpoint(t.api, echo.url, { prefix: "exp" });
      const id = await send(uid);
      const other = await send(uid);
      await waitFor(async () => (await deliveryOf(id)).status === "succeeded" && (await deliveryOf(other)).status === "succeeded", { what: "the deliveries" });
      const [echoed] = (await t.api.get(`/api/v1/messages/${id}/attempts`)).body.data;
      expect(echoed.response_body).toContain(SECRET);

      expect((await expunge(id)).status).toBe(204);
      const attempts = (await t.api.get(`/api/v1/messages/${id}/attempts`)).body.data;
      expect(attempts).toEqual([expect.objectContaining({ id: echoed.id, status_code: 200, success: true, response_body: null })]);
      const [left] = await sql()<{ n: number }[]>`select count(*)::int as n from attempts where message_id = ${id} and response_body like ${`%${SECRET}%`}`;
      expect(left!.n).toBe(0);
      // Another message's log is its own.
      expect((await t.api.get(`/api/v1/messages/${other}/attempts`)).body.data[0].response_body).toContain(SECRET);
      const audit = await t.api.get(`/api/v1/audit-events?target_id=${id}`);
      expect(audit.body.data.find((e: { action: string }) => e.action === "message.payload_expunged").data).toMatchObject({ responses_cleared: 1 });
    } finally {
      await echo.close();
    }
  });

  it("refuses a resend with 409 payload_expunged, and a second expunge the same way", async () => {
    const { uid, endpointId: endpoint } = await consumerWithEndpoint(t.api, t.ok.url, { prefix: "exp" });
    const id = await send(uid);
    await waitFor(async () => (await deliveryOf(id)).status === "succeeded", { what: "the delivery" });
    expect((await expunge(id)).status).toBe(204);
    const received = t.ok.received.length;
    const resend = await t.api.post(`/api/v1/messages/${id}/resend`, { endpoint_id: endpoint });
    expect(resend.status).toBe(409);
    expect(resend.headers.get("content-type")).toBe("application/problem+json");
    expect(resend.body).toMatchObject({ status: 409, code: "payload_expunged" });
    const again = await expunge(id);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("payload_expunged");
    const [queued] = await sql()<{ n: number }[]>`select count(*)::int as n from delivery_queue q join deliveries d on d.id = q.delivery_id where d.message_id = ${id}`;
    expect(queued!.n).toBe(0);
    expect(t.ok.received.length).toBe(received);
  });

  it("cancels a delivery still pending (it can no longer be sent) and drops its queue row", async () => {
    const { uid } = await consumerWithEndpoint(t.api, t.down.url, { prefix: "exp" });
    const id = await send(uid);
    await waitFor(async () => (await deliveryOf(id)).attempts === 1, { what: "the first, failed, attempt" });
    expect((await deliveryOf(id)).status).toBe("pending");
    expect((await expunge(id)).status).toBe(204);
    expect(await deliveryOf(id)).toMatchObject({ status: "canceled", last_error: "payload_expunged" });
    const [queued] = await sql()<{ n: number }[]>`select count(*)::int as n from delivery_queue q join deliveries d on d.id = q.delivery_id where d.message_id = ${id}`;
    expect(queued!.n).toBe(0);
    const shown = (await t.api.get(`/api/v1/messages/${id}`)).body.deliveries[0];
    expect(shown).toMatchObject({ status: "canceled", last_error: "payload_expunged", next_attempt_at: null });
  });

  it("makes a recovery skip its item, payload_expired", async () => {
    const { uid, endpointId: endpoint } = await consumerWithEndpoint(t.api, t.down.url, { prefix: "exp" });
    const id = await send(uid);
    await waitFor(async () => (await deliveryOf(id)).attempts === 1, { what: "the first, failed, attempt" });
    expect((await t.api.post(`/api/v1/endpoints/${endpoint}/disable`)).status).toBe(200);
    await waitFor(async () => (await deliveryOf(id)).status === "canceled", { what: "the delivery canceled" });
    expect((await t.api.post(`/api/v1/endpoints/${endpoint}/enable`)).status).toBe(200);
    // Made while no worker feeds it; the payload goes before its turn.
    await t.stopWorker();
    let runId = "";
    try {
      const run = await t.api.post(`/api/v1/endpoints/${endpoint}/recover`, { since: "2020-01-01T00:00:00Z", statuses: ["canceled"] });
      expect(run.status, run.text).toBe(202);
      runId = run.body.id;
      expect((await expunge(id)).status).toBe(204);
    } finally {
      await t.startWorker();
    }
    const attemptsBefore = (await deliveryOf(id)).attempts;
    const done = await waitFor(async () => {
      const run = (await t.api.get(`/api/v1/recoveries/${runId}`)).body;
      return run.state === "completed" ? run : null;
    }, { what: "the run completed", timeout: 30_000 });
    expect(done.counts).toMatchObject({ expected: 1, skipped: 1, succeeded: 0, failed: 0 });
    const items = (await t.api.get(`/api/v1/recoveries/${runId}/items`)).body.data;
    expect(items).toEqual([expect.objectContaining({ outcome: "skipped", skip_reason: "payload_expired" })]);
    expect((await deliveryOf(id)).attempts).toBe(attemptsBefore);
  });

  it("answers problem+json for an unknown message, a viewer, and a message of a consumer being erased", async () => {
    const unknown = await expunge("msg_does_not_exist");
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("content-type")).toBe("application/problem+json");
    expect(unknown.body.code).toBe("not_found");

    const { uid } = await consumerWithEndpoint(t.api, t.ok.url, { prefix: "exp" });
    const id = await send(uid);
    const viewer = await operatorClient("viewer");
    const refused = await call("DELETE", `/api/v1/messages/${id}/payload`, { headers: { cookie: viewer.cookie, origin: APP_ORIGIN } });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("forbidden");
    const admin = await operatorClient("admin");
    expect((await call("DELETE", `/api/v1/messages/${id}/payload`, { headers: { cookie: admin.cookie, origin: APP_ORIGIN } })).status).toBe(204);

    // A consumer being erased is gone from every read: its messages too.
    const other = await consumerWithEndpoint(t.api, t.ok.url, { prefix: "exp" });
    const theirs = await send(other.uid);
    await sql()`update consumers set deleted_at = now() where uid = ${other.uid}`;
    try {
      const gone = await expunge(theirs);
      expect(gone.status).toBe(404);
      expect(gone.body.code).toBe("not_found");
      expect((await t.api.get(`/api/v1/messages/${theirs}`)).status).toBe(404);
    } finally {
      await sql()`update consumers set deleted_at = null where uid = ${other.uid}`;
    }
  });
});

import { Webhook as SvixWebhook } from "svix";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb, getSql } from "../../lib/db/client";
import { attempts } from "../../lib/db/schema";
import { createMessage } from "../../lib/messages/create-message";
import { findMessageRow } from "../../lib/messages/queries";
import { systemCtx } from "../../lib/open-ctx";
import { AppError } from "../../lib/errors";
import { apiClient, type Api } from "../helpers/api";
import { withEnv } from "../helpers/env";
import { createConsumer, createEndpoint, sendMessage } from "../helpers/fixtures";
import { startReceiver, waitFor } from "../helpers/receiver";
import { startTestWorker } from "../helpers/worker";

// What the Svix-compatible API needs of the model, through our own API: endpoint uids, labels and
// channels, svix-* signature headers, the URL each attempt went to, per-rotation grace, imported
// secrets, message channels and tags, and event ids unique per consumer where asked.

process.env.DELIVERY_SCHEDULE = "0,150ms";

let api: Api;
let worker: Awaited<ReturnType<typeof startTestWorker>>;

beforeAll(async () => {
  api = await apiClient();
  worker = await startTestWorker();
});
afterAll(async () => {
  await worker.stop();
});

const consumer = async () => (await createConsumer(api, {}, "m")).uid;

describe("endpoints: uid, metadata, channels", () => {
  it("stores and answers them; a uid is unique within its consumer only, and never looks like an id", async () => {
    const a = await consumer();
    const b = await consumer();
    const created = await api.post(`/api/v1/consumers/${a}/endpoints`, {
      url: "https://hooks.example.test/a",
      uid: "billing-hook",
      metadata: { team: "billing" },
      channels: ["eu", "eu"],
      svix_headers: true,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ uid: "billing-hook", metadata: { team: "billing" }, channels: ["eu"], svix_headers: true });
    expect((await api.get(`/api/v1/endpoints/${created.body.id}`)).body).toMatchObject({ uid: "billing-hook", channels: ["eu"] });

    const taken = await api.post(`/api/v1/consumers/${a}/endpoints`, { url: "https://hooks.example.test/b", uid: "billing-hook" });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe("uid_taken");
    expect((await api.post(`/api/v1/consumers/${b}/endpoints`, { url: "https://hooks.example.test/c", uid: "billing-hook" })).status).toBe(201);

    for (const bad of [{ uid: "ep_123" }, { uid: "has space" }, { channels: [] }, { metadata: { n: 1 } }]) {
      const res = await api.post(`/api/v1/consumers/${a}/endpoints`, { url: "https://hooks.example.test/d", ...bad });
      expect(res.status, JSON.stringify(bad)).toBe(422);
    }
    const patched = await api.patch(`/api/v1/endpoints/${created.body.id}`, { channels: null, uid: null, metadata: {} });
    expect(patched.body).toMatchObject({ uid: null, channels: null, metadata: {} });
  });

  it("sends a message with channels only to endpoints without channels or sharing one; one without channels to the former only", async () => {
    const uid = await consumer();
    const make = async (channels?: string[]) =>
      (await createEndpoint(api, uid, "https://hooks.example.test/x", channels ? { channels } : {})).id;
    const all = await make();
    const eu = await make(["eu"]);
    const us = await make(["us", "ca"]);
    const deliveredTo = async (body: Record<string, unknown>) => {
      const sent = await sendMessage(api, uid, { payload: {}, ...body });
      const read = await api.get(`/api/v1/messages/${sent.id}`);
      return { read: read.body, to: read.body.deliveries.map((d: { endpoint_id: string }) => d.endpoint_id).sort() };
    };
    expect((await deliveredTo({ channels: ["eu"] })).to).toEqual([all, eu].sort());
    expect((await deliveredTo({ channels: ["ca", "eu"] })).to).toEqual([all, eu, us].sort());
    const plain = await deliveredTo({});
    expect(plain.to).toEqual([all]);
    expect(plain.read).toMatchObject({ channels: null, tags: null });
    const tagged = await deliveredTo({ channels: ["us"], tags: ["vip", "vip"] });
    expect(tagged.read).toMatchObject({ channels: ["us"], tags: ["vip"] });

    const byTag = await api.get(`/api/v1/messages?consumer=${uid}&tag=vip`);
    expect(byTag.body.data.map((m: { id: string }) => m.id)).toEqual([tagged.read.id]);
    const byChannel = await api.get(`/api/v1/messages?consumer=${uid}&channel=eu`);
    expect(byChannel.body.data).toHaveLength(2);
  });
});

describe("delivery with svix-* headers", () => {
  it("signs with both header sets, each verifying with its library, and logs the URL the attempt went to", async () => {
    const receiver = await startReceiver();
    const uid = await consumer();
    const url = `${receiver.url}/svix`;
    const both = (await createEndpoint(api, uid, url, { svix_headers: true })).id;
    const plain = (await createEndpoint(api, uid, `${receiver.url}/plain`)).id;
    const sent = await sendMessage(api, uid, { payload: { n: 1 } });
    await waitFor(() => receiver.received.length === 2, { what: "two deliveries" });
    const secret = async (id: string) => (await api.get(`/api/v1/endpoints/${id}/secret`)).body.key as string;

    const svixed = receiver.received.find((r) => r.path === "/svix")!;
    const headers = svixed.headers as Record<string, string>;
    expect(headers["svix-id"]).toBe(sent.id);
    expect(headers["svix-timestamp"]).toBe(headers["webhook-timestamp"]);
    expect(headers["svix-signature"]).toBe(headers["webhook-signature"]);
    // A receiver written for Svix reads the svix-* names alone.
    const svixOnly = { "svix-id": headers["svix-id"]!, "svix-timestamp": headers["svix-timestamp"]!, "svix-signature": headers["svix-signature"]! };
    expect(new SvixWebhook(await secret(both)).verify(svixed.body, svixOnly)).toEqual({ n: 1 });
    expect(new StandardWebhook(await secret(both)).verify(svixed.body, headers)).toEqual({ n: 1 });

    const other = receiver.received.find((r) => r.path === "/plain")!;
    expect(other.headers["svix-id"]).toBeUndefined();

    await waitFor(async () => (await getDb().select().from(attempts).where(eq(attempts.messageId, sent.id))).length === 2, { what: "attempts logged" });
    const logged = await api.get(`/api/v1/attempts?endpoint_id=${plain}`);
    expect(logged.body.data[0].url).toBe(`${receiver.url}/plain`);
  });
});

describe("secrets", () => {
  it("takes an imported Svix secret with or without its prefix, and refuses asymmetric ones in words", async () => {
    const uid = await consumer();
    const bare = Buffer.alloc(32, 7).toString("base64");
    const created = await api.post(`/api/v1/consumers/${uid}/endpoints`, { url: "https://hooks.example.test/s", secret: bare });
    expect(created.status).toBe(201);
    expect((await api.get(`/api/v1/endpoints/${created.body.id}/secret`)).body.key).toBe(`whsec_${bare}`);
    const refused = await api.post(`/api/v1/consumers/${uid}/endpoints`, { url: "https://hooks.example.test/s", secret: `whsk_${bare}` });
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.body)).toMatch(/Ed25519/);
  });

  it("keeps the previous secret signing for the rotation's grace_seconds, and not at all with 0", async () => {
    const uid = await consumer();
    const { id } = await createEndpoint(api, uid, "https://hooks.example.test/r");
    const active = async () =>
      (await getSql()<{ n: number }[]>`select count(*)::int as n from endpoint_secrets where endpoint_id = ${id} and (expires_at is null or expires_at > now())`)[0]!.n;
    expect((await api.post(`/api/v1/endpoints/${id}/secret/rotate`, { grace_seconds: 3600 })).status).toBe(200);
    expect(await active()).toBe(2);
    expect((await api.post(`/api/v1/endpoints/${id}/secret/rotate`, { grace_seconds: 0 })).status).toBe(200);
    // The one rotated with an hour keeps it; the one just replaced stopped at once.
    expect(await active()).toBe(2);
    expect((await api.post(`/api/v1/endpoints/${id}/secret/rotate`, { grace_seconds: 604_801 })).status).toBe(422);
  });
});

describe("event ids", () => {
  it("refuses an event id the consumer used within EVENT_ID_TTL where asked, takes it again after, and finds a message by it", async () => {
    const uid = await consumer();
    const ctx = systemCtx();
    const input = { consumer: uid, event_type: "invoice.paid", payload: { n: 1 }, event_id: "evt-1" };
    const first = await createMessage({ ctx, input, uniqueEventId: true });
    const again = await createMessage({ ctx, input, uniqueEventId: true }).catch((error: unknown) => error);
    expect(again).toBeInstanceOf(AppError);
    expect((again as AppError).code).toBe("event_id_taken");
    // Our own API never asked for it: the same id is taken there as before.
    expect((await createMessage({ ctx, input })).message.id).not.toBe(first.message.id);

    const consumerId = first.message.consumer_id;
    await expect(findMessageRow(ctx, "evt-1", { consumerId })).resolves.toMatchObject({ eventId: "evt-1" });
    await expect(findMessageRow(ctx, "evt-1")).rejects.toThrow();

    // Two at once with one id: one is taken, the other refused.
    const racing = await Promise.allSettled([1, 2].map(() => createMessage({ ctx, input: { ...input, event_id: "evt-2" }, uniqueEventId: true })));
    expect(racing.filter((r) => r.status === "fulfilled")).toHaveLength(1);

    await getSql()`update message_event_ids set expires_at = now() - interval '1 second' where event_id = 'evt-1'`;
    await expect(createMessage({ ctx, input, uniqueEventId: true })).resolves.toBeTruthy();
  });

  it("holds the id for EVENT_ID_TTL from the message", async () => {
    await withEnv({ EVENT_ID_TTL: "1h" }, async () => {
      const uid = await consumer();
      const { message } = await createMessage({ ctx: systemCtx(), input: { consumer: uid, event_type: "a.b", payload: {}, event_id: "e" }, uniqueEventId: true });
      const [row] = await getSql()<{ seconds: number }[]>`
        select extract(epoch from expires_at - now())::int as seconds from message_event_ids where message_id = ${message.id}`;
      expect(row!.seconds).toBeGreaterThan(3500);
      expect(row!.seconds).toBeLessThanOrEqual(3600);
    });
  });
});

/**
 * Svix's poller (message.poller) over our polling endpoints, through both official SDKs: the sink is
 * a polling endpoint, its messages in creation order with their Standard Webhooks headers, paged by
 * iterator; a named consumer's position kept between polls and moved by seek. And the Svix
 * surface's endpoint routes answering 501 in words for an endpoint of a kind Svix has no shape for.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { resetConfigForTests } from "../../lib/config";
import { apiClient, type Api } from "../helpers/api";
import { endpointSecret } from "../helpers/fixtures";
import { apiError, sdkServer, SDKS, upsert } from "./sdks";

process.env.POLL_SETTLE = "0";

const server = sdkServer();
let api: Api;

beforeAll(async () => {
  resetConfigForTests();
  api = await apiClient();
});

describe.each(SDKS)("Svix's poller through $name", (sdk) => {
  const svix = () => server.client(sdk);
  const upsertEndpoint = (uid: string, id: string) => upsert(svix().endpoint, uid, id, { url: "http://127.0.0.1:9/replaced" });
  let seq = 0;

  /** An application with a polling endpoint and `n` messages sent to it through the SDK: their ids in order. */
  async function pollingApp(n: number, fields: Record<string, unknown> = {}) {
    const uid = `poller-${sdk.name.replace(/\W/g, "")}-${++seq}`;
    await svix().application.create({ name: uid, uid });
    const sink = await api.post(`/api/v1/consumers/${uid}/endpoints`, { kind: "polling", ...fields });
    expect(sink.status, sink.text).toBe(201);
    const ids: string[] = [];
    for (let i = 0; i < n; i++) ids.push((await svix().message.create(uid, { eventType: i % 2 ? "order.shipped" : "order.paid", payload: { i }, channels: [`ch${i % 3}`] })).id);
    return { uid, sink: sink.body.id as string, ids };
  }

  it("polls a sink's messages in creation order, page by page, each verifiable with the endpoint's secret", async () => {
    const { uid, sink, ids } = await pollingApp(5);
    const first = await svix().message.poller.poll(uid, sink, { limit: 2 });
    expect(first.data.map((m) => m.id)).toEqual(ids.slice(0, 2));
    expect(first.done).toBe(false);
    const rest = await svix().message.poller.poll(uid, sink, { limit: 10, iterator: first.iterator });
    expect(rest.data.map((m) => m.id)).toEqual(ids.slice(2));
    expect(rest.done).toBe(true);
    const [message] = first.data;
    const secret = await endpointSecret(api, sink);
    expect(message).toMatchObject({ eventType: "order.paid", payload: { i: 0 }, channels: ["ch0"] });
    expect(message!.timestamp).toBeInstanceOf(Date);
    // 2.x's verify answers nothing; either throws for a signature that does not hold.
    expect(() => new sdk.Webhook(secret).verify(JSON.stringify(message!.payload), message!.headers!)).not.toThrow();
    expect(() => new sdk.Webhook(secret).verify(JSON.stringify({ i: 1 }), message!.headers!)).toThrow();
    // Narrowed by event type and channel, as Svix's poll takes them.
    expect((await svix().message.poller.poll(uid, sink, { eventType: "order.shipped" })).data.map((m) => m.id)).toEqual([ids[1], ids[3]]);
    expect((await svix().message.poller.poll(uid, sink, { channel: "ch2" })).data.map((m) => m.id)).toEqual([ids[2]]);
    // Given past the committed position: logged as polled, once.
    const attempts = await api.get(`/api/v1/attempts?endpoint_id=${sink}`);
    expect(attempts.body.data.map((a: { trigger: string }) => a.trigger)).toEqual(["polled", "polled", "polled", "polled", "polled"]);
  });

  it("keeps a named consumer's position between polls, and seek moves it", async () => {
    const { uid, sink, ids } = await pollingApp(4);
    const a = await svix().message.poller.consumerPoll(uid, sink, "reader-a", { limit: 3 });
    expect(a.data.map((m) => m.id)).toEqual(ids.slice(0, 3));
    // No iterator: on from where reader-a stands; another reader starts from the beginning.
    expect((await svix().message.poller.consumerPoll(uid, sink, "reader-a")).data.map((m) => m.id)).toEqual(ids.slice(3));
    expect((await svix().message.poller.consumerPoll(uid, sink, "reader-a")).data).toEqual([]);
    expect((await svix().message.poller.consumerPoll(uid, sink, "reader-b", { limit: 1 })).data.map((m) => m.id)).toEqual(ids.slice(0, 1));
    // Seek to just after the first message's time: reader-a reads on from the second.
    const seek = await svix().message.poller.consumerSeek(uid, sink, "reader-a", { after: a.data[0]!.timestamp });
    expect(typeof seek.iterator).toBe("string");
    expect((await svix().message.poller.consumerPoll(uid, sink, "reader-a")).data.map((m) => m.id)).toEqual(ids.slice(1));
  });

  it("is 404 for a sink that is not a polling endpoint, and the endpoint routes are 501 in words for a polling one", async () => {
    const { uid, sink } = await pollingApp(0);
    const http = await svix().endpoint.create(uid, { url: "http://127.0.0.1:9/poller-http" });
    const notSink = await apiError(sdk, svix().message.poller.poll(uid, http.id));
    expect(notSink.code).toBe(404);
    const refused = await apiError(sdk, svix().endpoint.get(uid, sink));
    expect(refused.code).toBe(501);
    expect(refused.body).toEqual({ code: "not_implemented", detail: expect.stringMatching(/kind polling.*\/poller\//) });
    expect((await apiError(sdk, svix().endpoint.getSecret(uid, sink))).code).toBe(501);
    expect((await apiError(sdk, svix().endpoint.delete(uid, sink))).code).toBe(501);
    // A queue destination too: nothing of its target is shown as a URL it is not.
    const amqp = await api.post(`/api/v1/consumers/${uid}/endpoints`, { kind: "amqp", target: { url: "amqp://user:secret@127.0.0.1:5672/", exchange: "webhooks", routing_key: "billing" } });
    expect(amqp.status, amqp.text).toBe(201);
    const queue = await apiError(sdk, svix().endpoint.get(uid, amqp.body.id));
    expect(queue.code).toBe(501);
    expect(queue.body.detail).toMatch(/kind amqp/);
    expect(JSON.stringify(queue.body)).not.toContain("secret");
    expect((await apiError(sdk, upsertEndpoint(uid, amqp.body.id))).code).toBe(501);
    // Lists leave them out; an http endpoint is as it was.
    expect((await svix().endpoint.list(uid)).data.map((e) => e.id)).toEqual([http.id]);
    expect((await svix().endpoint.get(uid, http.id)).url).toBe("http://127.0.0.1:9/poller-http");
  });
});

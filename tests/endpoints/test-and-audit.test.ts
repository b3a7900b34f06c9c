import { Webhook as StandardWebhook } from "standardwebhooks";
import { beforeAll, describe, expect, it } from "vitest";
import { apiClient, type Api } from "../helpers/api";
import { createConsumer, createEndpoint, endpointSecret } from "../helpers/fixtures";
import { startReceiver, waitFor } from "../helpers/receiver";
import { operatorClient } from "../helpers/session";
import { runTestWorker } from "../helpers/worker";

let api: Api;
beforeAll(async () => {
  api = await apiClient();
});
runTestWorker();

describe("POST /endpoints/{id}/test", () => {
  it("delivers the event type's example, signed, to that endpoint only, and logs it like any message", async () => {
    const target = await startReceiver((_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end("pong"));
    const other = await startReceiver();
    await createConsumer(api, { uid: "tester", name: "Tester" });
    await api.post("/api/v1/event-types", { name: "order.shipped", example: { order: "ord_1", carrier: "yamato" } });
    const ep = await createEndpoint(api, "tester", `${target.url}/hook`, { event_types: ["invoice.paid"] });
    await createEndpoint(api, "tester", `${other.url}/hook`);
    const secret = await endpointSecret(api, ep.id);

    const res = await api.post(`/api/v1/endpoints/${ep.id}/test`, { event_type: "order.shipped" });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ message_id: expect.stringMatching(/^msg_/) });

    await waitFor(() => target.received.length === 1, { what: "test delivery" });
    const got = target.received[0]!;
    expect(got.headers["webhook-id"]).toBe(res.body.message_id);
    expect(new StandardWebhook(secret).verify(got.body, got.headers as Record<string, string>)).toEqual({ order: "ord_1", carrier: "yamato" });

    const attempts = await waitFor(async () => {
      const list = await api.get(`/api/v1/messages/${res.body.message_id}/attempts`);
      return list.body.data.length > 0 ? list.body.data : null;
    });
    expect(attempts[0]).toMatchObject({ endpoint_id: ep.id, status_code: 200, response_body: "pong" });
    const log = await api.get(`/api/v1/messages?endpoint_id=${ep.id}`);
    expect(log.body.data.map((m: { id: string }) => m.id)).toContain(res.body.message_id);
    const message = await api.get(`/api/v1/messages/${res.body.message_id}`);
    expect(message.body.deliveries).toHaveLength(1);
    expect(other.received).toHaveLength(0);

    // Without a body: the endpoint's first event type, and a payload saying it is a test.
    const bare = await api.raw("POST", `/api/v1/endpoints/${ep.id}/test`, { key: api.key });
    expect(bare.status).toBe(202);
    await waitFor(() => target.received.length === 2, { what: "second test delivery" });
    expect(JSON.parse(target.received[1]!.body)).toMatchObject({ type: "invoice.paid", test: true });
    expect(other.received).toHaveLength(0);
    await Promise.all([target.close(), other.close()]);
  });

  it("refuses a disabled endpoint, an unknown one and a bad body without writing a message", async () => {
    await createConsumer(api, { uid: "tester2", name: "Tester 2" });
    const ep = await createEndpoint(api, "tester2", "https://hooks.example.test/x", { disabled: true });
    const before = (await api.get("/api/v1/messages?consumer=tester2")).body.data.length;
    const disabled = await api.post(`/api/v1/endpoints/${ep.id}/test`, {});
    expect(disabled.status).toBe(409);
    expect(disabled.body.code).toBe("invalid_state");
    expect((await api.post("/api/v1/endpoints/ep_nope/test", {})).body.code).toBe("not_found");
    const bad = await api.post(`/api/v1/endpoints/${ep.id}/test`, { payload: [1, 2] });
    expect(bad.status).toBe(422);
    expect(bad.headers.get("content-type")).toMatch(/problem\+json/);
    expect((await api.get("/api/v1/messages?consumer=tester2")).body.data.length).toBe(before);
  });

  it("is refused to a viewer", async () => {
    await createConsumer(api, { uid: "tester3", name: "Tester 3" });
    const ep = await createEndpoint(api, "tester3", "https://hooks.example.test/y");
    const viewer = await operatorClient("viewer");
    expect((await viewer.post(`/api/v1/endpoints/${ep.id}/test`, {})).status).toBe(403);
  });
});

describe("audit", () => {
  it("records an operator's secret reveal, not an API key's, and lists it with filters and keyset pages", async () => {
    await createConsumer(api, { uid: "audited", name: "Audited" });
    const ep = await createEndpoint(api, "audited", "https://hooks.example.test/z");
    await api.get(`/api/v1/endpoints/${ep.id}/secret`);
    const none = await api.get(`/api/v1/audit-events?target_id=${ep.id}&action=endpoint.secret_viewed`);
    expect(none.body.data).toHaveLength(0);

    const admin = await operatorClient("admin");
    const other = await operatorClient("admin");
    const viewer = await operatorClient("viewer");
    expect((await admin.get(`/api/v1/endpoints/${ep.id}/secret`)).status).toBe(200);
    expect((await other.get(`/api/v1/endpoints/${ep.id}/secret`)).status).toBe(200);
    // A viewer is refused, and a refusal reveals nothing to record.
    expect((await viewer.get(`/api/v1/endpoints/${ep.id}/secret`)).status).toBe(403);

    const seen = await viewer.get(`/api/v1/audit-events?target_id=${ep.id}&action=endpoint.secret_viewed`);
    expect(seen.status).toBe(200);
    expect(seen.body.data).toHaveLength(2);
    expect(seen.body.data[0]).toEqual({
      id: expect.stringMatching(/^aud/),
      actor: { type: "operator", id: other.operator.id, name: other.operator.email, deleted: false },
      action: "endpoint.secret_viewed",
      target_type: "endpoint",
      target_id: ep.id,
      data: {},
      created_at: expect.any(String),
      target: { type: "endpoint", id: ep.id, name: ep.url, detail: ep.url, deleted: false },
    });
    expect(JSON.stringify(seen.body)).not.toContain("whsec_");
    const byAdmin = await api.get(`/api/v1/audit-events?actor_type=operator&actor_id=${admin.operator.id}&target_id=${ep.id}`);
    expect(byAdmin.body.data.map((e: { actor: { id: string } }) => e.actor.id)).toEqual([admin.operator.id]);

    // The two reveals, a page each (the endpoint's creation is an audit event of its own too).
    const first = await api.get(`/api/v1/audit-events?target_id=${ep.id}&action=endpoint.secret_viewed&limit=1`);
    expect(first.body.data).toHaveLength(1);
    const second = await api.get(`/api/v1/audit-events?target_id=${ep.id}&action=endpoint.secret_viewed&limit=1&cursor=${first.body.next_cursor}`);
    expect(second.body.data).toHaveLength(1);
    expect(second.body.data[0].id).not.toBe(first.body.data[0].id);
    expect(second.body.next_cursor).toBeNull();
    const future = await api.get(`/api/v1/audit-events?target_id=${ep.id}&since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`);
    expect(future.body.data).toHaveLength(0);
  });

  it("answers bad filters with problem+json 400", async () => {
    for (const query of ["actor_type=robot", "since=yesterday", "limit=0", "cursor=zzz"]) {
      const res = await api.get(`/api/v1/audit-events?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.code).toBe("validation_failed");
    }
  });
});

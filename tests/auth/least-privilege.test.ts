import { beforeAll, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { getSql } from "../../lib/db/client";
import { apiClient, clientFor, type Api } from "../helpers/api";
import { withEnv } from "../helpers/env";
import { consumerWithEndpoint, endpointSecret, sendMessage } from "../helpers/fixtures";
import { portalSession } from "../helpers/portal";
import { runReceiver, waitFor } from "../helpers/receiver";
import { runTestWorker } from "../helpers/worker";

/**
 * What a customer's portal link may see and change, and what a test send may do: each link gets
 * only what its capabilities grant, and nothing that would let it forge or overload anything.
 */
process.env.DELIVERY_SCHEDULE = "0";

let api: Api;

beforeAll(async () => {
  api = await apiClient();
});

/** A consumer with the SaaS's internal metadata, which no portal link may see, and one endpoint. */
const customer = (headers: Record<string, string> = {}, url = "http://127.0.0.1:9/hook") =>
  consumerWithEndpoint(api, url, { consumer: { metadata: { plan: "enterprise", crm_id: "internal-42" } }, endpoint: { headers }, prefix: "lp" });

describe("custom header values", () => {
  it("are masked for a link without view_secrets, and a masked value sent back keeps the stored one", async () => {
    const { uid, endpointId } = await customer({ authorization: "Bearer receiver-token", "x-tenant": "t1" });
    const { token } = await portalSession(api, uid, { capabilities: ["manage_endpoints"] });
    const portal = clientFor(token);
    const seen = await portal.get(`/api/v1/endpoints/${endpointId}`);
    expect(seen.body.headers).toEqual({ authorization: "[redacted]", "x-tenant": "[redacted]" });
    expect((await portal.get(`/api/v1/consumers/${uid}/endpoints`)).body.data[0].headers).toEqual(seen.body.headers);

    // The portal's edit form sends back what it was shown, with one value changed and one added.
    const edited = await portal.patch(`/api/v1/endpoints/${endpointId}`, { headers: { ...seen.body.headers, "x-tenant": "t2", "x-new": "n" } });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body.headers).toEqual({ authorization: "[redacted]", "x-tenant": "[redacted]", "x-new": "[redacted]" });
    expect((await api.get(`/api/v1/endpoints/${endpointId}`)).body.headers).toEqual({ authorization: "Bearer receiver-token", "x-tenant": "t2", "x-new": "n" });
  });

  it("are shown to a link with view_secrets", async () => {
    const { uid, endpointId } = await customer({ authorization: "Bearer receiver-token" });
    const { token } = await portalSession(api, uid, { capabilities: ["view_secrets"] });
    expect((await clientFor(token).get(`/api/v1/endpoints/${endpointId}`)).body.headers).toEqual({ authorization: "Bearer receiver-token" });
  });
});

describe("a portal link and its consumer", () => {
  it("never sees the SaaS's internal metadata", async () => {
    const { uid } = await customer();
    const { token, session } = await portalSession(api, uid, { capabilities: [] });
    const one = await clientFor(token).get(`/api/v1/consumers/${session.consumer_id}`);
    expect(one.status).toBe(200);
    expect(one.body).not.toHaveProperty("metadata");
    expect(one.text).not.toContain("internal-42");
    const list = await clientFor(token).get("/api/v1/consumers");
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0]).not.toHaveProperty("metadata");
    expect((await api.get(`/api/v1/consumers/${uid}`)).body.metadata).toEqual({ plan: "enterprise", crm_id: "internal-42" });
  });

  it("changes alert_emails only with manage_endpoints", async () => {
    const { uid } = await customer();
    const readOnly = await portalSession(api, uid, { capabilities: [] });
    const refused = await clientFor(readOnly.token).patch(`/api/v1/consumers/${readOnly.session.consumer_id}`, { alert_emails: ["attacker@example.com"] });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("forbidden");
    expect((await api.get(`/api/v1/consumers/${uid}`)).body.alert_emails).toEqual([]);
    const manager = await portalSession(api, uid, { capabilities: ["manage_endpoints"] });
    const changed = await clientFor(manager.token).patch(`/api/v1/consumers/${manager.session.consumer_id}`, { alert_emails: ["ops@customer.example"] });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.alert_emails).toEqual(["ops@customer.example"]);
    expect(changed.body).not.toHaveProperty("metadata");
  });
});

describe("portal limits on endpoints", () => {
  it("refuses a max_concurrency above ENDPOINT_MAX_CONCURRENCY to a portal session, not to an API key", async () => {
    await withEnv({ ENDPOINT_MAX_CONCURRENCY: "10" }, async () => {
      const { uid, endpointId } = await customer();
      const { token } = await portalSession(api, uid, { capabilities: ["manage_endpoints"] });
      const created = await clientFor(token).post(`/api/v1/consumers/${uid}/endpoints`, { url: "http://127.0.0.1:9/x", max_concurrency: 11 });
      expect(created.status).toBe(422);
      expect(created.body.errors).toEqual([expect.objectContaining({ path: "max_concurrency" })]);
      const patched = await clientFor(token).patch(`/api/v1/endpoints/${endpointId}`, { max_concurrency: 500 });
      expect(patched.status).toBe(422);
      expect((await clientFor(token).patch(`/api/v1/endpoints/${endpointId}`, { max_concurrency: 10 })).status).toBe(200);
      expect((await api.get(`/api/v1/consumers/${uid}/endpoints`)).body.data).toHaveLength(1);
      expect((await api.patch(`/api/v1/endpoints/${endpointId}`, { max_concurrency: 500 })).status).toBe(200);
    });
  });

  it("stops a portal session at PORTAL_MAX_ENDPOINTS, also when creates race for the last place", async () => {
    await withEnv({ PORTAL_MAX_ENDPOINTS: "3" }, async () => {
      const { uid } = await customer();
      const { token } = await portalSession(api, uid, { capabilities: ["manage_endpoints"] });
      const racing = await Promise.all([1, 2, 3, 4].map((n) => clientFor(token).post(`/api/v1/consumers/${uid}/endpoints`, { url: `http://127.0.0.1:9/${n}` })));
      expect(racing.map((r) => r.status).sort()).toEqual([201, 201, 409, 409]);
      const refused = racing.find((r) => r.status === 409)!;
      expect(refused.body.code).toBe("endpoint_limit");
      expect(refused.headers.get("content-type")).toBe("application/problem+json");
      expect((await api.get(`/api/v1/consumers/${uid}/endpoints`)).body.data).toHaveLength(3);
      // The SaaS's own code is not bound by the portal's limit.
      expect((await api.post(`/api/v1/consumers/${uid}/endpoints`, { url: "http://127.0.0.1:9/api" })).status).toBe(201);
    });
  });

  it("bounds rate_limit_per_second for everyone", async () => {
    const { endpointId } = await customer();
    const res = await api.patch(`/api/v1/endpoints/${endpointId}`, { rate_limit_per_second: 10_001 });
    expect(res.status).toBe(422);
    expect((await api.patch(`/api/v1/endpoints/${endpointId}`, { rate_limit_per_second: 10_000 })).status).toBe(200);
  });
});

describe("test sends", () => {
  const receiver = runReceiver();
  runTestWorker();

  it("are marked `webhook-test: true` (signed like any other), real traffic is not, and each endpoint takes a bounded number a minute", async () => {
    await withEnv({ ENDPOINT_TEST_SENDS_PER_MINUTE: "2" }, async () => {
      const { uid, endpointId } = await customer({}, receiver.url);
      const secret = await endpointSecret(api, endpointId);
      const { token } = await portalSession(api, uid, { capabilities: ["manage_endpoints"] });
      const sends = [];
      for (let i = 0; i < 3; i++) sends.push(await clientFor(token).post(`/api/v1/endpoints/${endpointId}/test`, { event_type: "invoice.paid", payload: { forged: i } }));
      expect(sends.map((s) => s.status)).toEqual([202, 202, 429]);
      expect(Number(sends[2]!.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(sends[2]!.body.code).toBe("rate_limited");
      // Only the ones accepted were recorded.
      const [row] = await getSql()<{ n: number }[]>`select count(*)::int as n from messages m join deliveries d on d.message_id = m.id where d.endpoint_id = ${endpointId}`;
      expect(row!.n).toBe(2);

      const real = await sendMessage(api, uid, { payload: { real: true } });
      await waitFor(() => receiver.received.length === 3, { what: "two test sends and one real message" });
      for (const received of receiver.received) {
        const isReal = received.headers["webhook-id"] === real.id;
        expect(received.headers["webhook-test"], received.body).toBe(isReal ? undefined : "true");
        expect(() => new Webhook(secret).verify(received.body, received.headers as Record<string, string>)).not.toThrow();
      }
    });
  });
});

import { beforeAll, describe, expect, it } from "vitest";
import { apiClient, expectProblem, type Api } from "../helpers/api";
import { withEnv } from "../helpers/env";
import { createConsumer, createEndpoint, endpointSecret } from "../helpers/fixtures";
import { getDb } from "../../lib/db/client";
import { endpointSecrets, endpoints } from "../../lib/db/schema";
import { eq } from "drizzle-orm";

let api: Api;
beforeAll(async () => {
  api = await apiClient();
  await createConsumer(api, { uid: "acme", name: "Acme" });
});

describe("endpoints", () => {
  it("creates an endpoint with a generated whsec_ secret stored encrypted", async () => {
    const res = await api.post("/api/v1/consumers/acme/endpoints", {
      url: "https://hooks.acme.test/webhooks",
      description: "billing",
      event_types: ["invoice.paid"],
      headers: { "X-Acme": "1" },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^ep_/),
      consumer_id: expect.stringMatching(/^con_/),
      uid: null,
      url: "https://hooks.acme.test/webhooks",
      kind: "http",
      target: null,
      description: "billing",
      metadata: {},
      event_types: ["invoice.paid"],
      channels: null,
      svix_headers: false,
      headers: { "X-Acme": "1" },
      max_concurrency: 10,
      rate_limit_per_second: null,
      filter: null,
      ordering: "none",
      ordering_key: null,
      state: "active",
      disabled_reason: null,
      failing_since: null,
      consecutive_failures: 0,
      circuit_open_until: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const secret = await api.get(`/api/v1/endpoints/${res.body.id}/secret`);
    expect(secret.status).toBe(200);
    expect(secret.body.key).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(secret.body.key.slice(6), "base64").length).toBe(24);
    const stored = await getDb().select().from(endpointSecrets).where(eq(endpointSecrets.endpointId, res.body.id));
    expect(stored).toHaveLength(1);
    expect(stored[0]!.ciphertext).not.toContain(secret.body.key.slice(6));
    expect(stored[0]!.ciphertext).toMatch(/^v1\./);
  });

  it("lists by consumer id or uid, reads, patches, disables, enables and deletes", async () => {
    const created = await createEndpoint(api, "acme", "https://a.acme.test/");
    const id = created.id;
    const list = await api.get(`/api/v1/consumers/${created.consumer_id as string}/endpoints`);
    expect(list.body.data.map((e: { id: string }) => e.id)).toContain(id);
    expect((await api.get(`/api/v1/endpoints/${id}`)).body.url).toBe("https://a.acme.test/");

    const patched = await api.patch(`/api/v1/endpoints/${id}`, { url: "https://b.acme.test/x", max_concurrency: 3, event_types: [] });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ url: "https://b.acme.test/x", max_concurrency: 3, event_types: null });

    const disabled = await api.post(`/api/v1/endpoints/${id}/disable`);
    expect(disabled.body).toMatchObject({ state: "disabled", disabled_reason: expect.any(String) });
    const openUntil = new Date(Date.now() + 60_000);
    await getDb().update(endpoints).set({ consecutiveFailures: 7, failingSince: new Date(), circuitOpenUntil: openUntil }).where(eq(endpoints.id, id));
    expect((await api.get(`/api/v1/endpoints/${id}`)).body).toMatchObject({ consecutive_failures: 7, circuit_open_until: openUntil.toISOString() });
    const enabled = await api.post(`/api/v1/endpoints/${id}/enable`);
    expect(enabled.body).toMatchObject({ state: "active", disabled_reason: null, failing_since: null, consecutive_failures: 0, circuit_open_until: null });
    const [row] = await getDb().select().from(endpoints).where(eq(endpoints.id, id));
    expect(row!.consecutiveFailures).toBe(0);
    expect(row!.circuitOpenUntil).toBeNull();

    expect((await api.patch(`/api/v1/endpoints/${id}`, { disabled: true })).body.state).toBe("disabled");
    expect((await api.del(`/api/v1/endpoints/${id}`)).status).toBe(204);
    expectProblem(await api.get(`/api/v1/endpoints/${id}`), 404, "not_found");
  });

  it("refuses URLs that are not http(s), carry credentials, or are plain http when not allowed", async () => {
    for (const url of ["ftp://acme.test/x", "javascript:alert(1)", "https://user:pass@acme.test/x", "file:///etc/passwd"]) {
      const res = await api.post("/api/v1/consumers/acme/endpoints", { url });
      expectProblem(res, 422, "endpoint_url_forbidden");
      expect(res.body.errors[0].path).toBe("url");
    }
    expectProblem(await api.post("/api/v1/consumers/acme/endpoints", { url: "not a url" }), 422, "validation_failed");
    expectProblem(await api.post("/api/v1/consumers/acme/endpoints", { url: 42 }), 422, "validation_failed");
    expectProblem(await api.post("/api/v1/consumers/nobody/endpoints", { url: "https://x.test" }), 404, "not_found");
  });

  it("validates custom headers, limits and the event-type filter", async () => {
    const bad = [
      { headers: { host: "evil" } },
      { headers: { "webhook-signature": "forged" } },
      { headers: { "X-Ok": "a\r\nInjected: 1" } },
      { headers: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`X-H${i}`, "v"])) },
      { headers: { "X-Big": "v".repeat(5000) } },
      { max_concurrency: 0 },
      { rate_limit_per_second: -1 },
      { event_types: ["not valid!"] },
    ];
    for (const extra of bad) {
      expectProblem(await api.post("/api/v1/consumers/acme/endpoints", { url: "https://x.acme.test", ...extra }), 422, "validation_failed");
    }
  });

  it("rotates the secret; a caller-chosen key must be a valid whsec_", async () => {
    const { id } = await createEndpoint(api, "acme", "https://r.acme.test");
    const before = await endpointSecret(api, id);
    const rotated = await api.post(`/api/v1/endpoints/${id}/secret/rotate`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.key).not.toBe(before);
    expect(await endpointSecret(api, id)).toBe(rotated.body.key);
    const chosen = "whsec_" + Buffer.alloc(32, 7).toString("base64");
    expect((await api.post(`/api/v1/endpoints/${id}/secret/rotate`, { key: chosen })).body.key).toBe(chosen);
    expectProblem(await api.post(`/api/v1/endpoints/${id}/secret/rotate`, { key: "whsec_short" }), 422, "validation_failed");
  });
});

describe("with the SSRF guard on", () => {
  it("refuses obviously internal URLs at create time", async () => {
    await withEnv({ ALLOW_PRIVATE_ENDPOINTS: "false", ALLOW_HTTP_ENDPOINTS: "false" }, async () => {
      for (const url of ["https://127.0.0.1/", "https://localhost/x", "https://[::1]/", "https://10.1.2.3/", "https://169.254.169.254/latest"]) {
        expectProblem(await api.post("/api/v1/consumers/acme/endpoints", { url }), 422, "endpoint_url_forbidden");
      }
      expectProblem(await api.post("/api/v1/consumers/acme/endpoints", { url: "http://public.example/" }), 422, "endpoint_url_forbidden");
      expect((await api.post("/api/v1/consumers/acme/endpoints", { url: "https://public.example/" })).status).toBe(201);
    });
  });
});

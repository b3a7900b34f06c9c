import { beforeAll, describe, expect, it } from "vitest";
import { apiClient, clientFor, type Api } from "../helpers/api";
import { createConsumer, createEndpoint } from "../helpers/fixtures";
import { portalSession } from "../helpers/portal";
import { operatorClient } from "../helpers/session";

/**
 * Re-pointing an endpoint (a new URL) carries its stored custom header values to wherever the
 * caller points it, where a test send would show them. A caller that may read them (API key, admin,
 * portal session with `view_secrets`) keeps them as before; a portal session without `view_secrets`
 * keeps only the values it sends itself, and the answer's `headers_dropped` names the rest.
 * Table-driven over the actors that may change endpoints.
 */
type Client = Pick<Api, "patch">;
type Actor = { name: string; seesSecrets: boolean; client: () => Promise<Client> };

let api: Api;
let consumer: string;
const STORED = { Authorization: "Bearer receiver-s3cret", "X-Team": "alpha" };

const ACTORS: Actor[] = [
  { name: "API key", seesSecrets: true, client: async () => api },
  { name: "admin", seesSecrets: true, client: () => operatorClient("admin") },
  { name: "portal session with view_secrets", seesSecrets: true, client: async () => clientFor((await portalSession(api, consumer)).token) },
  {
    name: "portal session without view_secrets",
    seesSecrets: false,
    client: async () => clientFor((await portalSession(api, consumer, { capabilities: ["manage_endpoints"] })).token),
  },
];

let n = 0;
const fresh = () => createEndpoint(api, consumer, `http://127.0.0.1:9/before-${++n}`, { headers: STORED });
// What is stored, as an API key (which may read every value) sees it.
const storedHeaders = async (id: string) => (await api.get(`/api/v1/endpoints/${id}`)).body.headers as Record<string, string>;

beforeAll(async () => {
  api = await apiClient();
  consumer = (await createConsumer(api, {}, "repoint")).uid;
});

describe.each(ACTORS)("re-pointing an endpoint, as $name", ({ seesSecrets, client }) => {
  it("with the URL alone: stored header values stay only for a caller that may read them", async () => {
    const caller = await client();
    const endpoint = await fresh();
    const res = await caller.patch(`/api/v1/endpoints/${endpoint.id}`, { url: `http://127.0.0.1:9/after-${++n}` });
    expect(res.status, res.text).toBe(200);
    if (seesSecrets) {
      expect(res.body.headers_dropped).toEqual([]);
      expect(await storedHeaders(endpoint.id)).toEqual(STORED);
    } else {
      expect(res.body.headers_dropped).toEqual(["Authorization", "X-Team"]);
      expect(res.body.headers).toEqual({});
      expect(await storedHeaders(endpoint.id)).toEqual({});
    }
  });

  it("with headers sent back masked: a masked value keeps the stored one only for a caller that may read it", async () => {
    const caller = await client();
    const endpoint = await fresh();
    const res = await caller.patch(`/api/v1/endpoints/${endpoint.id}`, {
      url: `http://127.0.0.1:9/after-${++n}`,
      headers: { Authorization: "[redacted]", "X-Team": "beta" },
    });
    expect(res.status, res.text).toBe(200);
    if (seesSecrets) {
      expect(res.body.headers_dropped).toEqual([]);
      expect(await storedHeaders(endpoint.id)).toEqual({ Authorization: STORED.Authorization, "X-Team": "beta" });
    } else {
      expect(res.body.headers_dropped).toEqual(["Authorization"]);
      expect(res.body.headers).toEqual({ "X-Team": "[redacted]" });
      expect(await storedHeaders(endpoint.id)).toEqual({ "X-Team": "beta" });
    }
  });

  it("without a new URL (or to the same one), nothing is dropped", async () => {
    const caller = await client();
    const endpoint = await fresh();
    const same = await caller.patch(`/api/v1/endpoints/${endpoint.id}`, { url: endpoint.url, description: "same place" });
    expect(same.status, same.text).toBe(200);
    const masked = await caller.patch(`/api/v1/endpoints/${endpoint.id}`, { headers: { Authorization: "[redacted]", "X-Team": "[redacted]" } });
    expect(masked.status, masked.text).toBe(200);
    expect([same.body.headers_dropped, masked.body.headers_dropped]).toEqual([[], []]);
    expect(await storedHeaders(endpoint.id)).toEqual(STORED);
  });
});

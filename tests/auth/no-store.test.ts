import { beforeAll, describe, expect, it } from "vitest";
import { apiClient, call, type Api } from "../helpers/api";
import { consumerWithEndpoints } from "../helpers/fixtures";
import { mintPortalLink } from "../helpers/portal";

/**
 * Every answer that carries a credential or a secret — API keys, signing secrets, the values of an
 * endpoint's custom headers, portal links and sessions, the Svix API's app-portal token — says
 * `Cache-Control: no-store`, so no shared or browser cache keeps it. Table-driven, with what each
 * answer must hold (so an entry cannot pass on an answer without its secret).
 */
type Ids = { uid: string; endpoint: string };
type Entry = { req: (a: Ids) => Promise<{ method: string; path: string; body?: unknown; headers?: Record<string, string>; key?: string | null }>; holds: RegExp; status: number };

let api: Api;
let A: Ids;

const TABLE: Record<string, Entry> = {
  "POST /api-keys": { req: async () => ({ method: "POST", path: "/api-keys", body: { name: "cached?" } }), holds: /"sk_/, status: 201 },
  "POST /consumers/[consumer]/portal-links": { req: async (a) => ({ method: "POST", path: `/consumers/${a.uid}/portal-links`, body: {} }), holds: /#token=pt_/, status: 201 },
  "POST /portal/session": { req: async (a) => ({ method: "POST", path: "/portal/session", body: { token: await mintPortalLink(api, a.uid) }, key: null }), holds: /"ps_/, status: 201 },
  "GET /endpoints/[id]/secret": { req: async (a) => ({ method: "GET", path: `/endpoints/${a.endpoint}/secret` }), holds: /whsec_/, status: 200 },
  "POST /endpoints/[id]/secret/rotate": { req: async (a) => ({ method: "POST", path: `/endpoints/${a.endpoint}/secret/rotate`, body: {} }), holds: /whsec_/, status: 200 },
  "GET /endpoints/[id]": { req: async (a) => ({ method: "GET", path: `/endpoints/${a.endpoint}` }), holds: /Bearer receiver-secret/, status: 200 },
  "GET /app/[app_id]/endpoint/[endpoint_id]/secret": { req: async (a) => ({ method: "GET", path: `/app/${a.uid}/endpoint/${a.endpoint}/secret` }), holds: /whsec_/, status: 200 },
  "POST /auth/app-portal-access/[app_id]": { req: async (a) => ({ method: "POST", path: `/auth/app-portal-access/${a.uid}`, body: {} }), holds: /"token":"ps_/, status: 200 },
  // A replay of the same Idempotency-Key (lib/svix/route.ts mints anew).
  "POST /auth/app-portal-access/[app_id] (replayed)": {
    req: async (a) => {
      const replayed = { method: "POST", path: `/auth/app-portal-access/${a.uid}`, body: {}, headers: { "idempotency-key": "auto_no-store" } };
      await call(replayed.method, `/api/v1${replayed.path}`, { body: replayed.body, headers: replayed.headers, key: api.key });
      return replayed;
    },
    holds: /"token":"ps_/,
    status: 200,
  },
};

beforeAll(async () => {
  api = await apiClient();
  const { uid, endpoints } = await consumerWithEndpoints(api, ["http://127.0.0.1:9/no-store"], { endpoint: { headers: { authorization: "Bearer receiver-secret" } } });
  A = { uid, endpoint: endpoints[0]!.id };
});

describe("answers carrying a credential or a secret", () => {
  it.each(Object.keys(TABLE))("%s is Cache-Control: no-store", async (key) => {
    const entry = TABLE[key]!;
    const { method, path, body, headers, key: bearer } = await entry.req(A);
    const res = await call(method, `/api/v1${path}`, { body, headers, key: bearer === undefined ? api.key : bearer });
    expect(res.status, res.text).toBe(entry.status);
    expect(res.text).toMatch(entry.holds);
    expect(res.headers.get("cache-control"), key).toBe("no-store");
  });
});

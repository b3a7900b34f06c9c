import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { apiClient, type Api } from "../helpers/api";
import { consumerWithEndpoint, sendMessage } from "../helpers/fixtures";
import { getSql } from "../../lib/db/client";

/**
 * Every route stops reading a body at its limit: a 1 GiB upload costs what the limit allows and
 * is answered 413 with the connection closed (the server does not drain the rest), and nothing is
 * written. A route that takes no body still reads at most that much of one.
 */
const GiB = 1024 ** 3;
const CHUNK = 64 * 1024;
const LIMIT = 64 * 1024;

/** A body as large as `total` that is only produced as it is pulled, counting what was. */
function hugeBody(total = GiB) {
  const chunk = new Uint8Array(CHUNK).fill(0x20);
  const counter = { pulled: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (counter.pulled >= total) return controller.close();
      counter.pulled += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  return { stream, counter };
}

type Route = (req: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

async function send(method: string, route: string, params: Record<string, string>, key: string | null) {
  const file = path.resolve("app/api/v1", route, "route.ts");
  const handler = ((await import(file)) as Record<string, Route>)[method]!;
  const { stream, counter } = hugeBody();
  const headers: Record<string, string> = { "content-type": "application/json", "transfer-encoding": "chunked" };
  if (key) headers.authorization = `Bearer ${key}`;
  const req = new Request(`http://localhost/api/v1/${route}`, { method, headers, body: stream, duplex: "half" } as RequestInit);
  const res = await handler(req, { params: Promise.resolve(params) });
  return { res, pulled: counter.pulled, body: await res.json() };
}

let api: Api;
let endpointId: string;
let channelId: string;
let messageId: string;
beforeAll(async () => {
  api = await apiClient();
  ({ endpointId } = await consumerWithEndpoint(api, "https://hooks.acme.test/x", { consumer: { uid: "acme", name: "Acme" } }));
  await api.post(`/api/v1/endpoints/${endpointId}/disable`);
  channelId = (await api.post("/api/v1/alert-channels", { kind: "email", name: "ops", config: { to: ["ops@acme.test"] } })).body.id;
  messageId = (await sendMessage(api, "acme", { event_type: "a.b", payload: {} })).id;
});

const snapshot = async () => {
  const sql = getSql();
  return {
    endpoints: await sql`select id, state, updated_at from endpoints order by id`,
    secrets: await sql`select id from endpoint_secrets order by id`,
    consumers: await sql`select id, name, updated_at from consumers order by id`,
    channels: await sql`select id, name from alert_channels order by id`,
    messages: await sql`select id from messages order by id`,
    deliveries: await sql`select id, status from deliveries order by id`,
    alerts: await sql`select id from alerts order by id`,
    jobs: await sql`select count(*) from graphile_worker.jobs`,
  };
};

describe("a 1 GiB body", () => {
  const cases: [string, string, () => Record<string, string>][] = [
    ["POST", "endpoints/[id]/enable", () => ({ id: endpointId })],
    ["POST", "endpoints/[id]/disable", () => ({ id: endpointId })],
    ["POST", "endpoints/[id]/secret/rotate", () => ({ id: endpointId })],
    ["POST", "alert-channels/[id]/test", () => ({ id: channelId })],
    ["DELETE", "endpoints/[id]", () => ({ id: endpointId })],
    ["DELETE", "consumers/[consumer]", () => ({ consumer: "acme" })],
    ["DELETE", "alert-channels/[id]", () => ({ id: channelId })],
    ["PATCH", "endpoints/[id]", () => ({ id: endpointId })],
    ["PATCH", "consumers/[consumer]", () => ({ consumer: "acme" })],
    ["POST", "consumers", () => ({})],
    ["POST", "messages", () => ({})],
    ["POST", "messages/batch", () => ({})],
    ["POST", "messages/[id]/resend", () => ({ id: messageId })],
    ["POST", "endpoints/[id]/recover", () => ({ id: endpointId })],
    ["POST", "recoveries/[id]/pause", () => ({ id: "rec_none" })],
    ["POST", "recoveries/[id]/resume", () => ({ id: "rec_none" })],
    ["POST", "recoveries/[id]/cancel", () => ({ id: "rec_none" })],
    ["POST", "recoveries/[id]/retry-failed", () => ({ id: "rec_none" })],
  ];

  it.each(cases)("%s %s is refused with 413 after reading no more than its limit, and changes nothing", async (method, route, params) => {
    const before = await snapshot();
    const { res, pulled, body } = await send(method, route, params(), api.key);
    expect(res.status).toBe(413);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(body.code).toBe("payload_too_large");
    expect(res.headers.get("connection")).toBe("close");
    // POST /messages takes the payload limit plus its envelope, POST /messages/batch MAX_BATCH_BYTES; every other route 64 KiB.
    const limit = route === "messages" ? 1024 * 1024 + LIMIT : route === "messages/batch" ? 5 * 1024 * 1024 : LIMIT;
    expect(pulled).toBeLessThanOrEqual(limit + 2 * CHUNK);
    expect(await snapshot()).toEqual(before);
  });

  it("without an API key is a 401 that reads none of it and closes the connection", async () => {
    const { res, pulled } = await send("POST", "endpoints/[id]/enable", { id: endpointId }, null);
    expect(res.status).toBe(401);
    expect(res.headers.get("connection")).toBe("close");
    expect(pulled).toBeLessThanOrEqual(2 * CHUNK);
  });
});

describe("a body within the limit", () => {
  it("is ignored by routes that take none, and read by those that take one", async () => {
    expect((await api.raw("POST", `/api/v1/endpoints/${endpointId}/enable`, { rawBody: "anything", key: api.key })).status).toBe(200);
    expect((await api.post(`/api/v1/endpoints/${endpointId}/disable`, {})).status).toBe(200);
    const rotated = await api.raw("POST", `/api/v1/endpoints/${endpointId}/secret/rotate`, { rawBody: "", key: api.key });
    expect(rotated.status).toBe(200);
    expect(rotated.headers.get("connection")).toBeNull();
    expect((await api.raw("POST", `/api/v1/endpoints/${endpointId}/secret/rotate`, { rawBody: "{", key: api.key })).body.code).toBe("invalid_json");
  });
});

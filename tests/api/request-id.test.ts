import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { logger } from "../../lib/logger";
import { acceptedRequestId, served } from "../../lib/http/served";
import { apiClient, call, type Api } from "../helpers/api";
import { createConsumer } from "../helpers/fixtures";
import { APP_ORIGIN } from "../helpers/origin";
import { portalSession } from "../helpers/portal";
import { operatorClient } from "../helpers/session";

/**
 * Request ids and access lines, through the real route handlers in this process: the client's
 * X-Request-Id when it is acceptable (else a new one; hostile text is never echoed or logged) in the
 * answer's header, in every problem+json body as `request_id`, and as `req_id` on every log line
 * written while the request is served; exactly one access line per API request with the route's
 * template, status, duration and actor type, and never the credential.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let captured: string[] = [];
const realWrite = process.stderr.write.bind(process.stderr);
let api: Api;

type Line = Record<string, unknown> & { msg: string; level: string };
const lines = (): Line[] =>
  captured
    .join("")
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Line);
const accessLines = (reqId?: string) => lines().filter((l) => l.msg === "request" && (reqId === undefined || l.req_id === reqId));

beforeAll(async () => {
  process.env.LOG_LEVEL = "info";
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
    captured.push(String(chunk));
    return realWrite(chunk, ...rest);
  }) as typeof process.stderr.write;
  api = await apiClient();
  await createConsumer(api, { uid: "rid", name: "Request ids" });
});

beforeEach(() => {
  captured = [];
  process.env.LOG_LEVEL = "info";
});

afterAll(() => {
  process.stderr.write = realWrite;
  process.env.LOG_LEVEL = "error";
});

describe("X-Request-Id", () => {
  it("keeps a client's printable id of up to 128 characters, and replaces anything else", () => {
    for (const id of ["abc-123", "req_01HZX.9:trace/1+=@~", "x".repeat(128), "Root=1-5759e988-bd862e3fe1be46a994272793;Sampled=1"]) {
      expect(acceptedRequestId(id)).toBe(id);
    }
    for (const id of [null, "", "   ", "x".repeat(129), "<script>alert(1)</script>", 'a"b', "a'b", "a\\b", "a`b", "two words", "tab\there", "caf\u00e9", "line\u0085"]) {
      expect(acceptedRequestId(id)).toMatch(UUID);
    }
  });

  it("is echoed in the header, the problem+json body and every line of the request, with one access line", async () => {
    const id = "client-req-0001";
    const res = await api.get("/api/v1/messages/msg_unknown", undefined, { "x-request-id": id });
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(res.headers.get("x-request-id")).toBe(id);
    expect(res.body).toMatchObject({ code: "not_found", status: 404, request_id: id });
    const access = accessLines(id);
    expect(access).toHaveLength(1);
    expect(access[0]).toMatchObject({ level: "info", method: "GET", route: "/api/v1/messages/[id]", status: 404, actor_type: "api_key" });
    expect(access[0]!.duration_ms).toEqual(expect.any(Number));
    // The concrete path and the credential never; every line of this request names it.
    const text = captured.join("");
    expect(text).not.toContain("msg_unknown");
    expect(text).not.toContain(api.key);
    expect(lines().every((l) => l.req_id === id)).toBe(true);
  });

  it("is replaced when hostile or oversized, and the client's text is never echoed or logged", async () => {
    for (const hostile of ["<img src=x onerror=alert(1)>", "y".repeat(129), "caf\u00e9-\u00ff", 'quote"d', "tab\there"]) {
      captured = [];
      const res = await api.get("/api/v1/messages/msg_unknown", undefined, { "x-request-id": hostile });
      expect(res.status).toBe(404);
      const id = res.headers.get("x-request-id")!;
      expect(id).toMatch(UUID);
      expect(res.body.request_id).toBe(id);
      expect(res.text).not.toContain(hostile);
      expect(captured.join("")).not.toContain(hostile);
      expect(accessLines(id)).toHaveLength(1);
    }
  });

  it("is made when missing: a new one per request, on successes too", async () => {
    const first = await api.get("/api/v1/consumers");
    const second = await api.get("/api/v1/consumers");
    expect(first.status).toBe(200);
    const ids = [first.headers.get("x-request-id"), second.headers.get("x-request-id")];
    for (const id of ids) expect(id).toMatch(UUID);
    expect(ids[0]).not.toBe(ids[1]);
    expect(accessLines(ids[0]!)).toMatchObject([{ route: "/api/v1/consumers", status: 200, actor_type: "api_key" }]);
  });

  it("answers refused credentials, 405s and unknown paths with it too, and names the actor type only", async () => {
    const unknownKey = "sk_unknownKeyNeverLogged0123456789";
    const refused = await call("GET", "/api/v1/consumers", { key: unknownKey, headers: { "x-request-id": "refused-1" } });
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ code: "unauthorized", request_id: "refused-1" });
    expect(accessLines("refused-1")).toMatchObject([{ status: 401, actor_type: "none", route: "/api/v1/consumers" }]);

    const notAllowed = await call("DELETE", "/api/v1/messages", { key: api.key, headers: { "x-request-id": "method-1" } });
    expect(notAllowed.status).toBe(405);
    expect(notAllowed.body).toMatchObject({ request_id: "method-1" });
    expect(notAllowed.headers.get("x-request-id")).toBe("method-1");
    expect(accessLines("method-1")).toMatchObject([{ status: 405, route: "/api/v1/messages", method: "DELETE" }]);

    const unknownPath = await api.get("/api/v1/no/such/route", undefined, { "x-request-id": "path-1" });
    expect(unknownPath.status).toBe(404);
    expect(unknownPath.body.request_id).toBe("path-1");
    expect(accessLines("path-1")).toMatchObject([{ status: 404, route: "/api/v1/[...path]", actor_type: "api_key" }]);

    const portal = await portalSession(api, "rid");
    expect((await call("GET", "/api/v1/consumers/rid", { key: portal.token, headers: { "x-request-id": "portal-1" } })).status).toBe(200);
    expect(accessLines("portal-1")).toMatchObject([{ status: 200, route: "/api/v1/consumers/[consumer]", actor_type: "portal" }]);

    const viewer = await operatorClient("viewer");
    const denied = await viewer.post("/api/v1/consumers", { uid: "nope", name: "Nope" }, { "x-request-id": "viewer-1" });
    expect(denied.status).toBe(403);
    expect(denied.body.request_id).toBe("viewer-1");
    expect(accessLines("viewer-1")).toMatchObject([{ status: 403, actor_type: "operator" }]);

    const text = captured.join("");
    for (const secret of [unknownKey, api.key, portal.token, viewer.cookie.split("=")[1]!]) expect(text).not.toContain(secret);
  });

  it("stamps req_id on every line written while serving, awaited or not, and on none outside", async () => {
    let later: Promise<void> = Promise.resolve();
    const handler = served(async () => {
      logger.info("inside the handler");
      await new Promise<void>((resolve) => setImmediate(resolve));
      logger.warn("after an await");
      later = new Promise<void>((resolve) => setTimeout(() => (logger.info("from a timer it started"), resolve()), 5));
      return new Response(null, { status: 204 });
    });
    const res = await handler(new Request(`${APP_ORIGIN}/api/v1/anything`, { headers: { "x-request-id": "scope-1" } }), { params: Promise.resolve({}) });
    await later;
    logger.info("outside any request");
    expect(res.headers.get("x-request-id")).toBe("scope-1");
    const byMsg = Object.fromEntries(lines().map((l) => [l.msg, l]));
    for (const msg of ["inside the handler", "after an await", "from a timer it started", "request"]) expect(byMsg[msg]?.req_id, msg).toBe("scope-1");
    expect(byMsg["outside any request"]).not.toHaveProperty("req_id");
    expect(accessLines("scope-1")).toHaveLength(1);
  });

  it("reaches health, readiness and metrics too, whose access lines are at debug", async () => {
    const health = await call("GET", "/api/health", { headers: { "x-request-id": "probe-1" } });
    expect(health.headers.get("x-request-id")).toBe("probe-1");
    expect(accessLines("probe-1")).toEqual([]);
    process.env.LOG_LEVEL = "debug";
    const ready = await call("GET", "/api/health/ready", { headers: { "x-request-id": "probe-2" } });
    expect(ready.headers.get("x-request-id")).toBe("probe-2");
    expect(accessLines("probe-2")).toMatchObject([{ level: "debug", route: "/api/health/ready", status: ready.status, actor_type: "none" }]);
    const metrics = await call("GET", "/api/metrics");
    expect(metrics.status).toBe(404);
    expect(metrics.headers.get("x-request-id")).toMatch(UUID);
  });
});

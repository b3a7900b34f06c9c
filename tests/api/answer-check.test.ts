import { beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { withApi } from "../../lib/http/api-route";
import { json, noContent } from "../../lib/http/request";
import type { RouteDoc } from "../../lib/http/route-contract";
import { svixRoute } from "../../lib/svix/route";
import { apiClient } from "../helpers/api";
import { captureLogs } from "../helpers/log-capture";

/**
 * The check withApi makes of every 2xx answer outside production (lib/http/answer-contract.ts): a
 * handler that answers a field of the wrong type, a list without its envelope, or a 2xx its
 * operation does not document is a 500 `response_contract_violated` naming nothing of the answer,
 * the differences in the log; production answers it unchecked.
 */
const Thing = z.object({ id: z.string(), count: z.number().int() });
const doc = (success: RouteDoc["success"], also?: RouteDoc["also"]): RouteDoc => ({ operationId: "getThing", summary: "A thing", tag: "Meta", success, ...(also ? { also } : {}) });
const access = { portal: false, role: "read" } as const;

const logs = captureLogs("error");
let key: string;
beforeAll(async () => {
  key = (await apiClient()).key;
});

async function send(route: (req: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>) {
  const res = await route(new Request("http://localhost/api/v1/thing", { headers: { authorization: `Bearer ${key}` } }), { params: Promise.resolve({}) });
  return { status: res.status, type: res.headers.get("content-type"), requestId: res.headers.get("x-request-id"), text: await res.text() };
}

describe("a 2xx answer checked against its documented schema", () => {
  it("passes an answer its schema parses, unchanged", async () => {
    const route = withApi(async () => json({ id: "thg_1", count: 2, extra: "answers may gain fields" }), { ...access, doc: doc({ status: 200, description: "The thing.", schema: Thing }) });
    const res = await send(route);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toEqual({ id: "thg_1", count: 2, extra: "answers may gain fields" });
  });

  it("answers 500 response_contract_violated for a field of the wrong type, the differences in the log only", async () => {
    const route = withApi(async () => json({ id: 42, count: 2 }), { ...access, doc: doc({ status: 200, description: "The thing.", schema: Thing }) });
    const res = await send(route);
    expect(res.status).toBe(500);
    expect(res.type).toBe("application/problem+json");
    expect(JSON.parse(res.text)).toMatchObject({ status: 500, code: "response_contract_violated", request_id: res.requestId });
    expect(res.text).not.toContain("expected string");
    const line = logs
      .text()
      .split("\n")
      .find((l) => l.includes(res.requestId!) && l.includes("response contract violated"));
    expect(line, "a log line for the request").toBeDefined();
    expect(JSON.parse(line!)).toMatchObject({ operation: "getThing", status: 200, differences: [{ path: "id", message: expect.stringContaining("expected string") }] });
  });

  it("checks a list in its envelope, and a status the operation documents besides its success", async () => {
    const list = doc({ status: 200, description: "Things.", schema: Thing, list: true });
    expect((await send(withApi(async () => json({ data: [{ id: "thg_1", count: 1 }], next_cursor: null }), { ...access, doc: list }))).status).toBe(200);
    expect((await send(withApi(async () => json([{ id: "thg_1", count: 1 }]), { ...access, doc: list }))).status).toBe(500);
    expect((await send(withApi(async () => json({ data: [{ id: "thg_1", count: "1" }], next_cursor: null }), { ...access, doc: list }))).status).toBe(500);
    const made = doc({ status: 200, description: "The thing.", schema: Thing }, [{ status: 201, description: "Made.", schema: Thing }]);
    expect((await send(withApi(async () => json({ id: "thg_1", count: 1 }, 201), { ...access, doc: made }))).status).toBe(201);
    expect((await send(withApi(async () => json({ id: "thg_1" }, 201), { ...access, doc: made }))).status).toBe(500);
  });

  it("refuses a 2xx status the operation does not document", async () => {
    const route = withApi(async () => noContent(), { ...access, doc: doc({ status: 200, description: "The thing.", schema: Thing }) });
    expect(JSON.parse((await send(route)).text)).toMatchObject({ status: 500, code: "response_contract_violated" });
    const deleted = withApi(async () => noContent(), { ...access, doc: doc({ status: 204, description: "Deleted." }) });
    expect((await send(deleted)).status).toBe(204);
  });

  it("checks the Svix routes against their Svix schemas, answering in Svix's error shape", async () => {
    const route = svixRoute(async () => json({ id: "thg_1", count: 1.5 }), { ...access, doc: { operationId: "svixGetThing", summary: "A thing", success: { status: 200, description: "The thing.", schema: Thing } } });
    const res = await send(route);
    expect(res.status).toBe(500);
    expect(res.type).toBe("application/json");
    expect(JSON.parse(res.text)).toMatchObject({ code: "response_contract_violated" });
  });

  it("is off in production: the same wrong answer goes out as the handler made it", async () => {
    vi.stubEnv("NODE_ENV", "production");
    try {
      const route = withApi(async () => json({ id: 42, count: 2 }), { ...access, doc: doc({ status: 200, description: "The thing.", schema: Thing }) });
      const res = await send(route);
      expect(res.status).toBe(200);
      expect(JSON.parse(res.text)).toEqual({ id: 42, count: 2 });
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

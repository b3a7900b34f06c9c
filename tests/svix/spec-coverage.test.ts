import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { loggedAttempt } from "../helpers/attempt-row";
import { sdkServer, SDKS } from "./sdks";
import { callPath, matrix, matrixIn, specOperations, strayUnserved, verdict, type SpecOperation } from "./spec-operations";

/**
 * Svix's own API document (tests/fixtures/svix-openapi.json, pinned), every operation — under
 * /api/v1, and Svix Ingest's under /ingest/api/v1 — called once: path parameters are objects that exist where a 2xx is possible, a dummy for the rest;
 * bodies `{}`. No answer is a 404 of an unrouted path, a 405 or a 5xx but 501; a 404 is a served
 * route's not-found (of a dummy id), a 501 names why, each in Svix's error shape. docs/svix.md's
 * matrix is what this table prints.
 */
const sdk = SDKS[1];
const server = sdkServer();
const svix = () => server.client(sdk);

const ids: Record<string, string> = {};
const DUMMY = "dummy_0";

beforeAll(async () => {
  const app = await svix().application.create({ name: "Spec", uid: "spec-app" });
  await svix().eventType.create({ name: "spec.tested", description: "Spec", schemas: { "1": { type: "object", examples: [{ a: 1 }] } } });
  const endpoint = await svix().endpoint.create(app.id, { url: "http://127.0.0.1:9/spec" });
  const message = await svix().message.create(app.id, { eventType: "spec.tested", payload: { a: 1 } });
  const task = await svix().endpoint.recover(app.id, endpoint.id, { since: new Date(Date.now() - 3_600_000) });
  Object.assign(ids, {
    app_id: app.uid!,
    endpoint_id: endpoint.id,
    msg_id: message.id,
    attempt_id: await loggedAttempt(message.id, endpoint.id),
    event_type_name: "spec.tested",
    task_id: task.id,
  });
});

// Writes that remove what later calls use go last, the application's own deletion the very last.
const rank = (op: SpecOperation) => (op.method !== "DELETE" ? 0 : op.path === "/api/v1/app/{app_id}" ? 2 : 1);
const operations = specOperations().sort((a, b) => rank(a) - rank(b));

describe("Svix's API document", () => {
  it("has each operation served by a route or named as refused, and names nothing else", async () => {
    const unrouted: string[] = [];
    for (const op of operations) if ((await verdict(op)).kind === "unrouted") unrouted.push(`${op.method} ${op.path}`);
    expect(unrouted).toEqual([]);
    expect(strayUnserved(operations).map((u) => u.path)).toEqual([]);
  });

  it("answers a path of Svix Ingest's base path the document does not have a JSON 404, and no credential 401, in Svix's shape", async () => {
    const unknown = await call("GET", "/ingest/api/v1/nothing", { key: server.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ code: "not_found", detail: expect.any(String) });
    const anonymous = await call("POST", "/ingest/api/v1/source", { body: {} });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ code: "authentication_failed", detail: expect.any(String) });
  });

  it("is what docs/svix.md's matrix says", async () => {
    expect(matrixIn(readFileSync("docs/svix.md", "utf8")), "run: npx tsx scripts/svix-matrix.ts --write").toBe(await matrix());
  });

  it.each(operations.map((op) => [`${op.method} ${op.path}`, op] as const))("%s: never 404 unrouted, 405 or 5xx but 501", async (_name, op) => {
    const v = await verdict(op);
    const res = await call(op.method, callPath(op, (name) => ids[name] ?? DUMMY), {
      key: server.token,
      ...(op.method === "GET" || op.method === "DELETE" ? {} : { body: {} }),
    });
    const seen = `${res.status} ${res.text}`;
    // Every answer of the surface but a 204 is JSON, an error in Svix's shape.
    if (res.status !== 204) expect(res.headers.get("content-type"), seen).toMatch(/^application\/json/);
    expect(res.status, seen).not.toBe(405);
    expect(res.status === 501 || res.status < 500, seen).toBe(true);
    if (v.kind === "refused") {
      expect(res.status, seen).toBe(501);
      expect(res.body).toEqual({ code: "not_implemented", detail: expect.stringContaining(v.unserved.why) });
    } else {
      expect(res.status, seen).not.toBe(501);
    }
    if (res.status === 404) {
      // A served route's answer about a dummy id, never the catch-all's "No route".
      expect(v.kind, seen).toBe("served");
      expect(res.body.code, seen).toBe("not_found");
      expect(res.body.detail, seen).not.toMatch(/^No route/);
    }
    if (res.status >= 400 && res.status !== 422) expect(res.body, seen).toEqual({ code: expect.any(String), detail: expect.any(String) });
  });
});

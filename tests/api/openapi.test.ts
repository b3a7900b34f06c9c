import { describe, expect, it } from "vitest";
import { API_ROUTES } from "../../app/api/v1/routes";
import { call } from "../helpers/api";
import { apiRoutes } from "../helpers/routes";
import { buildOpenApiDocument } from "../../lib/api-document/document";

const doc = buildOpenApiDocument(API_ROUTES) as any;
const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];

/** Every method the routes implement, but the catch-all's, as `METHOD /path` relative to /api/v1. */
function implementedOperations(): string[] {
  return apiRoutes()
    .filter((route) => !route.path.includes("*"))
    .flatMap((route) => route.methods.map(({ method }) => `${method} ${route.path}`))
    .sort();
}

const documentedOperations = () =>
  Object.entries(doc.paths as Record<string, Record<string, unknown>>)
    .flatMap(([p, item]) => Object.keys(item).filter((k) => HTTP_METHODS.includes(k.toUpperCase())).map((m) => `${m.toUpperCase()} ${p}`))
    .sort();

function resolve(node: any): any {
  if (node && typeof node.$ref === "string") {
    const target = node.$ref.replace(/^#\//, "").split("/").reduce((at: any, key: string) => at?.[key], doc);
    if (target === undefined) throw new Error(`unresolved ${node.$ref}`);
    return resolve(target);
  }
  return node;
}

function refsIn(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => refsIn(n, out));
  else if (node && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string") out.push(value);
      else refsIn(value, out);
    }
  }
  return out;
}

describe("OpenAPI document", () => {
  it("is OpenAPI 3.1 served from /api/v1 with bearer API keys", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.servers).toEqual([{ url: "/api/v1" }]);
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.components.schemas.Problem).toMatchObject({
      type: "object",
      required: expect.arrayContaining(["type", "title", "status", "detail", "code"]),
    });
    expect(doc.components.schemas.Problem.properties.errors).toBeDefined();
  });

  it("documents exactly the routes of app/api/v1/routes.ts and their exported methods", () => {
    const implemented = implementedOperations();
    expect(implemented.length).toBeGreaterThan(20);
    expect(documentedOperations()).toEqual(implemented);
  });

  it("asks for the API key on every operation but the document itself, and a dashboard session on the operator's own account and operators' sessions", () => {
    const sessionOnly = (p: string) => p === "/sessions" || p.startsWith("/sessions/") || p === "/operators/{id}/sessions" || p === "/two-factor" || p.startsWith("/two-factor/enrollment");
    for (const [p, item] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      for (const [method, op] of Object.entries(item)) {
        const expected =
          p === "/openapi.json" || (p === "/portal/session" && method === "post")
            ? []
            : p === "/endpoints/{id}/poll"
              ? [{ pollToken: [] }]
              : sessionOnly(p)
                ? [{ dashboardSession: [] }]
                : [{ apiKey: [] }];
        expect(op.security, `${method} ${p}`).toEqual(expected);
        expect(op.operationId, `${method} ${p}`).toEqual(expect.any(String));
        // problem+json, or on the Svix-compatible surface Svix's `{code, detail}` as JSON.
        const content = expected.length ? resolve(op.responses["401"]).content : {};
        if (expected.length) expect(op.tags[0] === "Svix" ? content["application/json"] : content["application/problem+json"], `${method} ${p}`).toBeDefined();
      }
    }
  });

  it("describes the request bodies with their required fields", () => {
    const body = (method: string, p: string) => resolve(doc.paths[p][method].requestBody.content["application/json"].schema);
    const consumer = body("post", "/consumers");
    expect(consumer.required).toEqual(["uid", "name"]);
    expect(Object.keys(consumer.properties)).toEqual(expect.arrayContaining(["uid", "name", "metadata", "alert_emails"]));
    expect(consumer.additionalProperties).toBe(false);
    const message = body("post", "/messages");
    expect(message.required).toEqual(["consumer", "event_type", "payload"]);
    expect(Object.keys(message.properties)).toContain("event_id");
    expect(doc.paths["/messages"].post.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: "Idempotency-Key", in: "header" })]));
  });

  it("shapes list answers as {data, next_cursor} and documents their query parameters", () => {
    const list = resolve(doc.paths["/consumers"].get.responses["200"].content["application/json"].schema);
    expect(list.required).toEqual(["data", "next_cursor"]);
    expect(resolve(list.properties.data.items).required).toEqual(expect.arrayContaining(["id", "uid", "name"]));
    const names = doc.paths["/messages"].get.parameters.map((p: { name: string }) => p.name);
    expect(names).toEqual(expect.arrayContaining(["limit", "cursor", "consumer", "event_type", "status", "endpoint_id", "since", "until"]));
    expect(doc.paths["/endpoints/{id}"].get.parameters).toEqual([expect.objectContaining({ name: "id", in: "path", required: true })]);
  });

  it("resolves every $ref", () => {
    const refs = refsIn(doc);
    expect(refs.length).toBeGreaterThan(0);
    for (const r of refs) expect(() => resolve({ $ref: r }), r).not.toThrow();
  });

  it("is answered as JSON at GET /api/v1/openapi.json without an API key", async () => {
    const res = await call("GET", "/api/v1/openapi.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(JSON.parse(res.text)).toEqual(JSON.parse(JSON.stringify(doc)));
  });
});

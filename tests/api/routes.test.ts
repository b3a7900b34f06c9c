import path from "node:path";
import { describe, expect, it } from "vitest";
import { HTTP_METHODS } from "../../lib/http/methods";
import { findRoutes } from "../helpers/route-server";
import { apiRoutes } from "../helpers/routes";

/**
 * The manifest, app/api/v1/routes.ts, against the route files themselves: it lists every one by its
 * path (the folders as findRoutes walks them, the walker that also serves them over HTTP; every
 * other route test walks the manifest), each implemented method declares its access and its OpenAPI operation, and each route answers every
 * method: its own, a problem+json 405 with `Allow` for the rest (Next.js alone answers those with a
 * bare 405), and OPTIONS. A new route that forgets `otherMethods` or its manifest line fails here.
 */
type Handler = (req: Request, context: unknown) => Promise<Response> | Response;

const ROOT = path.resolve("app/api/v1");

const routes = apiRoutes();

it("lists every route file under app/api/v1, by its path, and nothing else", () => {
  expect(routes.length).toBeGreaterThan(15);
  expect(routes.map((r) => r.folder).sort()).toEqual(findRoutes(ROOT).map((r) => "/" + r.segments.join("/")).sort());
});

it("has each implemented method declare who may call it and its OpenAPI operation", () => {
  for (const route of routes) {
    for (const { method, contract } of route.methods) {
      expect(contract, `${method} ${route.path} is not declared with withApi or publicRoute`).toBeDefined();
      // Only the catch-all for unknown paths has no operation to document.
      if (!route.path.includes("*")) expect(contract!.doc, `${method} ${route.path} has no OpenAPI operation`).not.toBeNull();
    }
  }
});

describe.each(routes.map((route) => [route.path, route] as const))("%s", (_path, route) => {
  it("answers every method: its own, 405 problem+json with Allow, and OPTIONS", async () => {
    const routeModule = route.module as Record<string, Handler | undefined>;
    // Next.js answers HEAD from GET by itself; every other method must be exported.
    for (const method of HTTP_METHODS) {
      if (method === "HEAD" && routeModule.GET) continue;
      expect(routeModule[method], `${method} is not exported`).toBeTypeOf("function");
    }
    const answers = new Map<string, Response>();
    for (const method of HTTP_METHODS) {
      const handler = routeModule[method];
      if (!handler) continue;
      // No API key: implemented methods stop at 401 (or answer, for public routes) without a database.
      answers.set(method, await handler(new Request("http://localhost/api/v1/x", { method }), { params: Promise.resolve({}) }));
    }
    // The unknown-path route answers every method as its own (with a 404, given a key).
    if (route.path.includes("*")) return expect([...answers.values()].map((res) => res.status)).not.toContain(405);
    const implemented = [...answers].filter(([method, res]) => method !== "OPTIONS" && res.status !== 405).map(([method]) => method);
    // The Svix-compatible surface answers its errors in Svix's shape, `{code, detail}` as JSON (lib/svix).
    const svix = route.methods.some(({ contract }) => contract?.doc?.tag === "Svix");
    expect(implemented.length).toBeGreaterThan(0);
    const allow = HTTP_METHODS.filter((m) => implemented.includes(m) || (m === "HEAD" && implemented.includes("GET")) || m === "OPTIONS").join(", ");
    for (const [method, res] of answers) {
      if (method === "OPTIONS") {
        expect(res.status).toBe(204);
        expect(res.headers.get("allow")).toBe(allow);
      } else if (!implemented.includes(method)) {
        expect(res.status).toBe(405);
        expect(res.headers.get("content-type")).toBe(svix ? "application/json" : "application/problem+json");
        expect(res.headers.get("allow")).toBe(allow);
        expect(await res.json()).toMatchObject(svix ? { code: "method_not_allowed", detail: expect.any(String) } : { status: 405, code: "method_not_allowed" });
      }
    }
  });
});

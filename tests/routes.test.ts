import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { HTTP_METHODS } from "../lib/http/methods";

/**
 * Every route file under app/api/v1 answers every method: the ones it implements, a problem+json
 * 405 with `Allow` for the rest (Next.js alone answers those with a bare 405), and OPTIONS. A new
 * route that forgets `otherMethods` fails here.
 */
type Handler = (req: Request, context: unknown) => Promise<Response> | Response;

const ROOT = path.resolve("app/api/v1");

function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? routeFiles(path.join(dir, entry.name)) : entry.name === "route.ts" ? [path.join(dir, entry.name)] : [],
  );
}

const files = routeFiles(ROOT);

it("finds the routes", () => {
  expect(files.length).toBeGreaterThan(15);
});

describe.each(files.map((file) => [path.relative(ROOT, path.dirname(file)) || "/", file]))("%s", (_route, file) => {
  it("answers every method: its own, 405 problem+json with Allow, and OPTIONS", async () => {
    const routeModule = (await import(file)) as Record<string, Handler | undefined>;
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
    if (file.includes("[...")) return expect([...answers.values()].map((res) => res.status)).not.toContain(405);
    const implemented = [...answers].filter(([method, res]) => method !== "OPTIONS" && res.status !== 405).map(([method]) => method);
    expect(implemented.length).toBeGreaterThan(0);
    const allow = HTTP_METHODS.filter((m) => implemented.includes(m) || (m === "HEAD" && implemented.includes("GET")) || m === "OPTIONS").join(", ");
    for (const [method, res] of answers) {
      if (method === "OPTIONS") {
        expect(res.status).toBe(204);
        expect(res.headers.get("allow")).toBe(allow);
      } else if (!implemented.includes(method)) {
        expect(res.status).toBe(405);
        expect(res.headers.get("content-type")).toBe("application/problem+json");
        expect(res.headers.get("allow")).toBe(allow);
        expect(await res.json()).toMatchObject({ status: 405, code: "method_not_allowed" });
      }
    }
  });
});

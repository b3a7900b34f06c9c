import { readdirSync } from "node:fs";
import path from "node:path";
import { createApiKey } from "../../lib/api-keys";
import { systemCtx } from "../../lib/open-ctx";

/**
 * Calls the real route handlers of app/api in-process, routed the way Next.js routes them
 * (static segments before [param] before [...catchAll]), with real Request/Response objects.
 */
type Route = { segments: string[]; file: string };

const APP_API = path.resolve("app/api");

function findRoutes(dir: string, prefix: string[] = []): Route[] {
  const routes: Route[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) routes.push(...findRoutes(path.join(dir, entry.name), [...prefix, entry.name]));
    else if (entry.name === "route.ts") routes.push({ segments: prefix, file: path.join(dir, entry.name) });
  }
  return routes;
}

const rank = (segment: string) => (segment.startsWith("[...") ? 2 : segment.startsWith("[") ? 1 : 0);
const routes = findRoutes(APP_API).sort((a, b) => {
  for (let i = 0; i < Math.max(a.segments.length, b.segments.length); i++) {
    const diff = rank(a.segments[i] ?? "") - rank(b.segments[i] ?? "");
    if (diff !== 0) return diff;
  }
  return b.segments.length - a.segments.length;
});

function match(pathname: string): { route: Route; params: Record<string, string | string[]> } | null {
  const parts = pathname.replace(/^\/api\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);
  for (const route of routes) {
    const params: Record<string, string | string[]> = {};
    let ok = true;
    for (let i = 0; i < route.segments.length && ok; i++) {
      const segment = route.segments[i]!;
      if (segment.startsWith("[...")) {
        params[segment.slice(4, -1)] = parts.slice(i);
        if (parts.length <= i) ok = false;
        return ok ? { route, params } : null;
      }
      if (i >= parts.length) ok = false;
      else if (segment.startsWith("[")) params[segment.slice(1, -1)] = parts[i]!;
      else if (segment !== parts[i]) ok = false;
    }
    if (ok && route.segments.length === parts.length) return { route, params };
  }
  return null;
}

/** Answers a request with the route handler Next.js would pick for it (a bare 405 for a method the file does not export). */
export async function handle(request: Request): Promise<Response> {
  const found = match(new URL(request.url).pathname);
  if (!found) throw new Error(`no route for ${new URL(request.url).pathname}`);
  const routeModule = (await import(found.route.file)) as Record<string, (req: Request, ctx: unknown) => Promise<Response>>;
  const handler = routeModule[request.method];
  if (!handler) return new Response(null, { status: 405 });
  return handler(request, { params: Promise.resolve(found.params) });
}

export type ApiResponse<T = any> = { status: number; headers: Headers; body: T; text: string };

export async function call<T = any>(
  method: string,
  pathname: string,
  options: { body?: unknown; rawBody?: string; headers?: Record<string, string>; key?: string | null } = {},
): Promise<ApiResponse<T>> {
  const url = new URL(pathname, "http://localhost:3000");
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  const response = await handle(new Request(url, { method, headers, body }));
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = text;
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

/** A client bound to a fresh API key. */
export async function apiClient() {
  const { key } = await createApiKey({ ctx: systemCtx(), input: { name: "test" } });
  const as =
    (method: string) =>
    <T = any>(pathname: string, body?: unknown, headers?: Record<string, string>) =>
      call<T>(method, pathname, { body, headers, key });
  return { key, get: as("GET"), post: as("POST"), patch: as("PATCH"), del: as("DELETE"), raw: call };
}

import { readdirSync } from "node:fs";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { Readable } from "node:stream";

/**
 * A tree's route handlers (every route.ts of its app/: app/api's, and app/ingest/api's), routed the
 * way Next.js routes them (static segments before [param] before [...catchAll]) and served over
 * real HTTP — with no imports of the project's own, so it serves any checkout's handlers: this
 * one's (tests/helpers/api.ts, http-app.ts) or a previous release's (tests/helpers/serve-routes.ts,
 * run in that tree).
 */
export type Route = { segments: string[]; file: string };
export type Handle = (request: Request) => Promise<Response>;

/** Every route.ts under `dir`, with its folder segments below `dir` — the one walker of app/ (tests/api/routes.test.ts checks the manifest against it). */
export function findRoutes(dir: string, prefix: string[] = []): Route[] {
  const routes: Route[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    // A route group, "(name)", organises folders without adding a segment to the URL (as Next.js does).
    if (entry.isDirectory()) routes.push(...findRoutes(path.join(dir, entry.name), /^\(.+\)$/.test(entry.name) ? prefix : [...prefix, entry.name]));
    else if (entry.name === "route.ts") routes.push({ segments: prefix, file: path.join(dir, entry.name) });
  }
  return routes;
}

const rank = (segment: string) => (segment.startsWith("[...") ? 2 : segment.startsWith("[") ? 1 : 0);

function match(routes: Route[], pathname: string): { route: Route; params: Record<string, string | string[]> } | null {
  const parts = pathname.split("/").filter(Boolean).map(decodeURIComponent);
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

/** The route of `appDir` (a tree's app/) Next.js would pick for a path (`/api/v1/…`), and its params; null for none. */
export function router(appDir: string) {
  const routes = findRoutes(appDir).sort((a, b) => {
    for (let i = 0; i < Math.max(a.segments.length, b.segments.length); i++) {
      const diff = rank(a.segments[i] ?? "") - rank(b.segments[i] ?? "");
      if (diff !== 0) return diff;
    }
    return b.segments.length - a.segments.length;
  });
  return (pathname: string) => match(routes, pathname);
}

/** Answers a request with the handler of `appDir` (a tree's app/) Next.js would pick (a bare 405 for a method the file does not export). */
export function routeHandler(appDir: string): Handle {
  const route = router(appDir);
  return async (request) => {
    const found = route(new URL(request.url).pathname);
    if (!found) throw new Error(`no route for ${new URL(request.url).pathname}`);
    const routeModule = (await import(found.route.file)) as Record<string, (req: Request, ctx: unknown) => Promise<Response>>;
    const handler = routeModule[request.method];
    if (!handler) return new Response(null, { status: 405 });
    return handler(request, { params: Promise.resolve(found.params) });
  };
}

/** `handle` over real HTTP on 127.0.0.1, on a free port. */
export async function serveHandler(handle: Handle) {
  const server = createServer(async (req: IncomingMessage, res) => {
    try {
      const url = `http://${req.headers.host ?? "127.0.0.1"}${req.url ?? "/"}`;
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
      }
      const hasBody = req.method !== "GET" && req.method !== "HEAD";
      const request = new Request(url, {
        method: req.method,
        headers,
        body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
        duplex: "half",
      } as RequestInit);
      const response = await handle(request);
      // Every Set-Cookie a response sets (a sign-in sets several), not the last one alone.
      const cookies = response.headers.getSetCookie();
      res.writeHead(response.status, { ...Object.fromEntries(response.headers), ...(cookies.length > 0 ? { "set-cookie": cookies } : {}) });
      res.end(Buffer.from(await response.arrayBuffer()));
    } catch (error) {
      // A route missing from app/ (Next.js would answer its HTML 404): plain text, so a test sees it.
      res.writeHead(599, { "content-type": "text/plain" }).end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    /** Stops taking connections, lets the requests in flight finish, then resolves. */
    drain: () => new Promise<void>((resolve) => server.close(() => resolve())),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

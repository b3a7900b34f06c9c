import path from "node:path";
import { expect } from "vitest";
import { createApiKey } from "../../lib/api-keys";
import { systemCtx } from "../../lib/open-ctx";
import { APP_ORIGIN } from "./origin";
import { routeHandler } from "./route-server";

/**
 * Calls the real route handlers of app/ in-process, routed the way Next.js routes them
 * (static segments before [param] before [...catchAll]), with real Request/Response objects.
 */
export const handle = routeHandler(path.resolve("app"));

export type ApiResponse<T = any> = { status: number; headers: Headers; body: T; text: string };

/** Asserts a problem+json answer: its status, its stable code and, given a field's path, an error naming that field. */
export function expectProblem(res: ApiResponse, status: number, code: string, path?: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  expect(res.body.code).toBe(code);
  if (path) expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
}

export async function call<T = any>(
  method: string,
  pathname: string,
  options: { body?: unknown; rawBody?: string; headers?: Record<string, string>; key?: string | null } = {},
): Promise<ApiResponse<T>> {
  const url = new URL(pathname, APP_ORIGIN);
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

/** A client that calls with this bearer key: an API key (one the CLI printed, say) or a portal session's token. */
export function clientFor(key: string) {
  const as =
    (method: string) =>
    <T = any>(pathname: string, body?: unknown, headers?: Record<string, string>) =>
      call<T>(method, pathname, { body, headers, key });
  return { key, get: as("GET"), post: as("POST"), patch: as("PATCH"), del: as("DELETE"), raw: call };
}

/** A client bound to a fresh API key. */
export async function apiClient() {
  const { key } = await createApiKey({ ctx: systemCtx(), input: { name: "test" } });
  return clientFor(key);
}

export type Api = ReturnType<typeof clientFor>;

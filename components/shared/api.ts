import type { API_ROUTES } from "@/app/api/v1/routes";
import type { AnswerOf } from "@/lib/http/api-route";

/**
 * The one fetcher of /api/v1: the dashboard's calls carry the session cookie (same origin, so the
 * browser sends Origin and the server can check it); a caller with a bearer token (the portal's
 * session) passes it instead. A problem+json answer becomes an ApiError.
 */
export type Problem = {
  status: number;
  code: string;
  title?: string;
  detail?: string;
  errors?: { path: string; message: string }[];
  /** The server's x-request-id, which its log names the error by. */
  request_id?: string;
};

export class ApiError extends Error {
  constructor(readonly problem: Problem) {
    super(problem.detail ?? problem.code);
  }
}

/**
 * Each documented route of /api/v1 as `METHOD /path/{param}`, and what it answers: the type of the
 * zod object its operation documents (z.output, as the server checks its answers in tests and
 * development), from the route table's type alone — nothing of app/ or lib/ is bundled.
 */
type Routes = typeof API_ROUTES;
type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
type Documented<P extends keyof Routes> = { [M in Method & keyof Routes[P]]: [AnswerOf<Routes[P][M]>] extends [never] ? never : `${M} ${P & string}` }[Method & keyof Routes[P]];
export type ApiRoute = { [P in keyof Routes]: Documented<P> }[keyof Routes];
/** Every route, documented answer or not: a file download (a `.d.ts`, text/plain) has no JSON shape to type. */
export type FileRoute = { [P in keyof Routes]: `${Method & keyof Routes[P] & string} ${P & string}` }[keyof Routes];
type Handler<R> = R extends `${infer M} ${infer P extends keyof Routes}` ? Routes[P][M & keyof Routes[P]] : never;
export type Answer<R extends ApiRoute> = AnswerOf<Handler<R>>;

export type ApiInit = { body?: unknown; token?: string };

/**
 * A call of one route: `route` says which (and its method), `path` is its path with the parameters
 * filled in and any query string. `as: "blob"` answers the body as it came (a CSV report, say),
 * fetched with the same credential.
 */
export type ApiCall = {
  (route: FileRoute, path: string, init: ApiInit & { as: "blob" }): Promise<Blob>;
  <R extends ApiRoute>(route: R, path: string, init?: ApiInit): Promise<Answer<R>>;
};

/** The fetch itself, untyped: `api` below is the same function, typed by the route it calls. */
export async function fetchApi(route: FileRoute, path: string, init: ApiInit & { as?: "blob" } = {}): Promise<unknown> {
  const method = route.slice(0, route.indexOf(" "));
  const headers: Record<string, string> = {};
  if (init.body !== undefined) headers["content-type"] = "application/json";
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  let response: Response;
  try {
    response = await fetch(`/api/v1${path}`, {
      method,
      credentials: init.token ? "omit" : "same-origin",
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  } catch {
    throw new ApiError({ status: 0, code: "network_error" });
  }
  if (response.status === 204) return undefined;
  if (response.ok && init.as === "blob") return await response.blob();
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (!response.ok) {
    const problem = (body && typeof body === "object" ? body : {}) as Partial<Problem>;
    throw new ApiError({
      ...problem,
      status: response.status,
      code: problem.code ?? `http_${response.status}`,
      request_id: response.headers.get("x-request-id") ?? undefined,
    });
  }
  return body;
}

export const api = fetchApi as ApiCall;

export type { Page } from "@/lib/pagination";

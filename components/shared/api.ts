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

/** `as: "blob"` answers the body as it came (a CSV report, say), fetched with the same credential. */
export type ApiInit = { method?: string; body?: unknown; token?: string; as?: "json" | "blob" };
export type ApiCall = <T>(path: string, init?: ApiInit) => Promise<T>;

export async function api<T>(path: string, init: ApiInit = {}): Promise<T> {
  const headers: Record<string, string> = {};
  if (init.body !== undefined) headers["content-type"] = "application/json";
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  let response: Response;
  try {
    response = await fetch(`/api/v1${path}`, {
      method: init.method ?? "GET",
      credentials: init.token ? "omit" : "same-origin",
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  } catch {
    throw new ApiError({ status: 0, code: "network_error" });
  }
  if (response.status === 204) return undefined as T;
  if (response.ok && init.as === "blob") return (await response.blob()) as T;
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
  return body as T;
}

export type { Page } from "@/lib/pagination";

import { randomUUID } from "node:crypto";
import { logger } from "../logger";
import { runInRequestScope, type RequestScope } from "../logging/request-scope";
import { recordHttpRequest } from "../metrics/web";
import { failSpan, inRequestSpan } from "../telemetry/tracing";
import { routeTemplate } from "./route-templates";

export type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> };
type Handler<R extends Request> = (req: R, route: RouteContext) => Response | Promise<Response>;

const MAX_REQUEST_ID = 128;
const PRINTABLE = /^[\x21-\x7e]+$/;
// Printable, yet never echoed: quotes, backslash, angle brackets and backquote.
const QUOTING = /["'`\\<>]/;

/**
 * The request id for a request: the client's X-Request-Id when it is 1–128 printable ASCII
 * characters without quotes, backslashes or angle brackets — else (absent, too long, control or
 * non-ASCII characters, markup) a new UUID, and the client's text is never echoed or logged.
 */
export function acceptedRequestId(header: string | null): string {
  const id = header?.trim() ?? "";
  if (id.length > 0 && id.length <= MAX_REQUEST_ID && PRINTABLE.test(id) && !QUOTING.test(id)) return id;
  return randomUUID();
}

/** `response` with the header set, copied first when its headers are immutable (Response.redirect's). */
function withHeader(response: Response, name: string, value: string): Response {
  try {
    response.headers.set(name, value);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    copy.headers.set(name, value);
    return copy;
  }
}

/**
 * Every route of app/ (app/api, app/ingest/api) goes through this, outermost: the request's id
 * (X-Request-Id, see acceptedRequestId) is its scope — every log line written while it is served
 * carries `req_id`, its problem+json answers carry `request_id` — and its answer's X-Request-Id
 * header; then one access line, `{"msg":"request", method, route, status, duration_ms, actor_type}`, by the route's
 * declared template (./route-templates.ts: never text from the request, which would make a series
 * and a span name per path; never a credential). With `api` (the REST API, the default)
 * the request is also counted and timed for /api/metrics, traced when tracing is on, and its
 * access line is at info; otherwise (health, metrics, demo) the line is at `access`, debug unless
 * said. The access line is written once, however the handler ends.
 */
export function served<R extends Request>(handler: Handler<R>, options: { api?: boolean; access?: "info" | "debug" } = {}) {
  const api = options.api ?? true;
  const level = options.access ?? (api ? "info" : "debug");
  return async (req: R, route: RouteContext): Promise<Response> => {
    const started = performance.now();
    const scope: RequestScope = { id: acceptedRequestId(req.headers.get("x-request-id")), actor: null };
    const template = routeTemplate(new URL(req.url).pathname);
    return runInRequestScope(scope, async () => {
      let status = 500;
      try {
        const answer = () => Promise.resolve(handler(req, route));
        const response = api
          ? await inRequestSpan(req, template, { "webhook_admin.request_id": scope.id }, async (span) => {
              const answered = await answer();
              span?.setAttribute("http.response.status_code", answered.status);
              if (scope.actor) span?.setAttribute("webhook_admin.actor_type", scope.actor);
              if (span && answered.status >= 500) failSpan(span, { code: String(answered.status) });
              return answered;
            })
          : await answer();
        status = response.status;
        return withHeader(response, "x-request-id", scope.id);
      } finally {
        const durationMs = performance.now() - started;
        if (api) recordHttpRequest({ route: template, method: req.method, status, durationMs });
        logger[level]("request", { method: req.method, route: template, status, duration_ms: Math.round(durationMs * 10) / 10, actor_type: scope.actor ?? "none" });
      }
    });
  };
}

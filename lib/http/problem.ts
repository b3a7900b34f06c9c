import { randomUUID } from "node:crypto";
import { z } from "zod";
import { AppError, ValidationError, zodFieldErrors, type FieldError } from "../errors";
import { isConnectionError, isRetryableConflict } from "../db/errors";
import { logger } from "../logger";
import { requestScope } from "../logging/request-scope";

/** The id of the request being served (lib/http/served.ts), or a new one outside a request. */
const currentRequestId = () => requestScope()?.id ?? randomUUID();

/** A problem+json answer; `request_id` is the request's (its X-Request-Id), which the log names it by. */
export function problem(
  status: number,
  body: { code: string; title: string; detail: string; errors?: FieldError[] },
  headers: Record<string, string> = {},
  requestId: string = currentRequestId(),
): Response {
  return new Response(
    JSON.stringify({
      type: `https://webhook-admin.dev/problems/${body.code}`,
      title: body.title,
      status,
      detail: body.detail,
      code: body.code,
      ...(body.errors ? { errors: body.errors } : {}),
      request_id: requestId,
    }),
    { status, headers: { "content-type": "application/problem+json", ...headers } },
  );
}

/**
 * The one place errors become HTTP answers: typed domain errors and zod errors map to their
 * problem; a lost database is a 503 the client may retry; anything else is a logged 500 that
 * shows the request id and nothing of the internals.
 */
export function errorResponse(error: unknown, requestId: string = currentRequestId()): Response {
  const headers = { "x-request-id": requestId };
  if (error instanceof z.ZodError) error = new ValidationError("The request is invalid.", zodFieldErrors(error));
  if (error instanceof AppError) {
    return problem(
      error.status,
      { code: error.code, title: error.title, detail: error.message, errors: error.errors },
      { ...headers, ...error.headers },
      requestId,
    );
  }
  // A 503 the client may simply send again after `retryAfter` seconds.
  const unavailable = (logged: string, detail: string, retryAfter: number) => {
    logger.warn(logged, { req_id: requestId, error: String(error) });
    return problem(503, { code: "service_unavailable", title: "Service unavailable", detail }, { ...headers, "retry-after": String(retryAfter) }, requestId);
  };
  if (isConnectionError(error)) return unavailable("database unreachable", "The database is unreachable; retry shortly.", 5);
  // Verbs retry these themselves; one that still met concurrent work after its retries may simply be sent again.
  if (isRetryableConflict(error)) return unavailable("transaction conflict after retries", "The change met concurrent work; retry shortly.", 1);
  logger.error("unhandled error", { req_id: requestId, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  return problem(
    500,
    { code: "internal_error", title: "Internal error", detail: `Something went wrong; quote request id ${requestId}.` },
    headers,
    requestId,
  );
}

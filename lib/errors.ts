import type { z } from "zod";

/** Typed domain errors. lib/http/problem.ts turns them into RFC 9457 problem+json. */

/** `pointer`: the JSON pointer to the fault inside a field that is a document of its own (an endpoint's filter). */
export type FieldError = { path: string; message: string; pointer?: string };

/** A zod error's issues as the field errors a ValidationError carries: domains throw these, only the surface renders them. */
export function zodFieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.map((issue) => ({ path: issue.path.map(String).join(".") || "(root)", message: issue.message }));
}

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly title: string,
    detail: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(detail);
  }
}

export class ValidationError extends AppError {
  constructor(detail: string, errors?: FieldError[], status = 422) {
    super(status, "validation_failed", "Validation failed", detail, errors);
  }
}

export class InvalidJsonError extends AppError {
  constructor(detail = "The request body is not valid JSON.") {
    super(400, "invalid_json", "Invalid JSON", detail);
  }
}

export class NotFoundError extends AppError {
  constructor(
    readonly what: string,
    ref?: string,
  ) {
    super(404, "not_found", "Not found", ref ? `No ${what} "${ref}".` : `No such ${what}.`);
  }
}

export class ConflictError extends AppError {
  constructor(code: string, detail: string) {
    super(409, code, "Conflict", detail);
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(limit: number) {
    // The rest of the body is never read: the connection closes after this answer instead.
    super(413, "payload_too_large", "Payload too large", `The payload is larger than ${limit} bytes.`, undefined, { connection: "close" });
  }
}

export class UnauthorizedError extends AppError {
  constructor(detail = "A valid API key is required: send `Authorization: Bearer sk_…`.") {
    super(401, "unauthorized", "Unauthorized", detail, undefined, { "www-authenticate": "Bearer" });
  }
}

export class ForbiddenError extends AppError {
  constructor(detail = "This credential may not do that.", code = "forbidden") {
    super(403, code, "Forbidden", detail);
  }
}

export class RateLimitedError extends AppError {
  constructor(retryAfterSeconds: number) {
    super(429, "rate_limited", "Too many requests", `Rate limit exceeded; retry in ${retryAfterSeconds} s.`, undefined, {
      "retry-after": String(retryAfterSeconds),
    });
  }
}

export class EndpointUrlForbiddenError extends AppError {
  /** `path` names the field: an endpoint's `url`, or an alert channel's `config.webhook_url`. */
  constructor(detail: string, path = "url") {
    super(422, "endpoint_url_forbidden", "Endpoint URL forbidden", detail, [{ path, message: detail }]);
  }
}

export class MethodNotAllowedError extends AppError {
  constructor(method: string, allow: string) {
    super(405, "method_not_allowed", "Method not allowed", `${method} is not allowed here; this route allows ${allow}.`, undefined, { allow });
  }
}

import { AppError } from "../errors";
import { errorResponse } from "../http/problem";

/**
 * The Svix API's error shape, for every answer of its surface: `{code, detail}` (HttpErrorOut), and
 * for a 422 `{detail: [{loc, msg, type}]}` (HTTPValidationError), as its SDKs parse them: every
 * error is JSON, so a client gets an ApiException with the right status and code, never a
 * SyntaxError. What an error is, and its status and headers, is decided once by lib/http/problem.ts
 * (our problem+json); this only re-renders it.
 */

/** An operation of Svix's API this server does not serve (lib/svix/unserved.ts; docs/svix.md lists them), and why. */
export class NotImplementedError extends AppError {
  constructor({ what, why }: { what: string; why: string }) {
    super(501, "not_implemented", "Not implemented", `${what} is not served by this server's Svix-compatible API: ${why} See docs/svix.md.`);
  }
}

/** A field error where Svix would name it: `loc` is `["body", …path]` or `["query", name]`. */
export class SvixValidationError extends AppError {
  constructor(readonly detail: { loc: (string | number)[]; msg: string; type: string }[]) {
    super(422, "validation_failed", "Validation failed", detail.map((d) => `${d.loc.join(".")}: ${d.msg}`).join("; "));
  }
}

/**
 * Runs `work`, and a 422 it ends in — a field error of ours (`errors[].path`, dotted) or Svix's
 * validation error — comes out as Svix's, each field named by `where` (its steps below `body`):
 * for a verb of ours called with fields Svix names otherwise, or on an item inside a larger body.
 */
export async function namingFields<T>(work: () => Promise<T>, where: (steps: (string | number)[]) => (string | number)[]): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof SvixValidationError) throw new SvixValidationError(error.detail.map((d) => ({ ...d, loc: ["body", ...where(d.loc.slice(1))] })));
    if (!(error instanceof AppError) || error.status !== 422) throw error;
    const faults = error.errors?.length ? error.errors : [{ path: "", message: error.message }];
    throw new SvixValidationError(faults.map((f) => ({ loc: ["body", ...where(f.path.split(".").filter(Boolean))], msg: f.message, type: "value_error" })));
  }
}

type ProblemBody = { status: number; code: string; detail: string; errors?: { path: string; message: string; pointer?: string }[] };

// Svix's own codes where it has one; ours (documented in docs/api.md) for the rest.
const CODES: Record<number, string> = { 401: "authentication_failed", 404: "not_found" };

const camel = (name: string) => name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
const loc = (path: string): (string | number)[] => ["body", ...(path === "(root)" ? [] : path.split(".").map((p) => (/^\d+$/.test(p) ? Number(p) : camel(p))))];
/** A JSON pointer's steps (RFC 6901), array indexes as numbers: the payload's own keys, never camel-cased. */
const steps = (pointer: string): (string | number)[] =>
  pointer === "" ? [] : pointer.slice(1).split("/").map((p) => p.replaceAll("~1", "/").replaceAll("~0", "~")).map((p) => (/^(0|[1-9]\d*)$/.test(p) ? Number(p) : p));

function jsonAnswer(status: number, body: unknown, headers: Headers): Response {
  headers.set("content-type", "application/json");
  return new Response(JSON.stringify(body), { status, headers });
}

export async function svixErrorResponse(error: unknown, requestId?: string): Promise<Response> {
  if (error instanceof SvixValidationError) {
    return jsonAnswer(422, { detail: error.detail }, new Headers(requestId ? { "x-request-id": requestId } : {}));
  }
  const problem = errorResponse(error, requestId);
  const body = (await problem.json()) as ProblemBody;
  const headers = new Headers(problem.headers);
  if (problem.status === 422) {
    const fields = body.errors?.length ? body.errors : [{ path: "(root)", message: body.detail }];
    // A fault with a JSON pointer is named down to where it is: into the body (a filter, a schema,
    // an example), or for a payload its event type's schema rejects, into the payload.
    const where = (f: (typeof fields)[number]) => {
      const pointer = "pointer" in f ? f.pointer : undefined;
      if (pointer === undefined) return loc(f.path);
      return body.code === "payload_invalid" ? ["body", "payload", ...steps(pointer)] : ["body", ...steps(pointer)];
    };
    return jsonAnswer(422, { detail: fields.map((f) => ({ loc: where(f), msg: f.message, type: "value_error" })) }, headers);
  }
  const code = problem.status === 409 && body.code !== "event_type_exists" ? "conflict" : (CODES[problem.status] ?? body.code);
  return jsonAnswer(problem.status, { code, detail: body.detail }, headers);
}

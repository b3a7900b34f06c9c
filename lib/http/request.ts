import { z } from "zod";
import { InvalidJsonError, PayloadTooLargeError, ValidationError, zodFieldErrors } from "../errors";

const DEFAULT_BODY_LIMIT = 64 * 1024;

/**
 * A body as text, read until `maxBytes` and no further: past it the rest is never read (413, and
 * the connection closes instead of draining it), whatever the route. Empty when there is none.
 */
export async function readText(req: Request, maxBytes: number): Promise<string> {
  const declared = Number(req.headers.get("content-length") ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) throw new PayloadTooLargeError(maxBytes);
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new PayloadTooLargeError(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new InvalidJsonError();
  }
}

/** Reads a JSON body without ever buffering more than `maxBytes`. */
export async function readJson(req: Request, maxBytes: number): Promise<unknown> {
  const text = await readText(req, maxBytes);
  if (text.trim() === "") throw new InvalidJsonError("The request has no body; send a JSON object.");
  return parseJson(text);
}

function validate<S extends z.ZodType>(schema: S, json: unknown): z.infer<S> {
  const result = schema.safeParse(json);
  if (!result.success) throw new ValidationError("The request body is invalid.", zodFieldErrors(result.error));
  return result.data;
}

export async function parseBody<S extends z.ZodType>(req: Request, schema: S, maxBytes = DEFAULT_BODY_LIMIT): Promise<z.infer<S>> {
  return validate(schema, await readJson(req, maxBytes));
}

/** A JSON body that may be left out: absent or empty reads as `{}`. */
export async function readOptionalJson(req: Request, maxBytes: number): Promise<unknown> {
  const text = await readText(req, maxBytes);
  return text.trim() === "" ? {} : parseJson(text);
}

/** An optional body: absent or empty means `{}`. */
export async function parseOptionalBody<S extends z.ZodType>(req: Request, schema: S, maxBytes = DEFAULT_BODY_LIMIT): Promise<z.infer<S>> {
  return validate(schema, await readOptionalJson(req, maxBytes));
}

/** For routes that take no body: whatever is sent is ignored, up to the limit, and refused past it. */
export async function ignoreBody(req: Request, maxBytes = DEFAULT_BODY_LIMIT): Promise<void> {
  await readText(req, maxBytes);
}

/** The query string as an object: a parameter given more than once is the array of its values. */
export function queryParams(req: Request): Record<string, string | string[]> {
  const params = new URL(req.url).searchParams;
  const raw: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    raw[key] = values.length > 1 ? values : values[0]!;
  }
  return raw;
}

export function parseQuery<S extends z.ZodType>(req: Request, schema: S): z.infer<S> {
  const result = schema.safeParse(queryParams(req));
  if (!result.success) throw new ValidationError("The query string is invalid.", zodFieldErrors(result.error), 400);
  return result.data;
}

export function json(data: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(data), { status, headers: { "content-type": "application/json", ...headers } });
}

export function noContent(): Response {
  return new Response(null, { status: 204 });
}

import { z } from "zod";
import type { FieldError } from "../errors";
import type { Assert, ErrorStatus, Io, JsonSchema, Operation, Same } from "../openapi/operation";

/**
 * How one Operation becomes an OpenAPI operation object, and the answers every operation shares:
 * errors are application/problem+json with the Problem schema.
 */

export const Problem = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  code: z.string(),
  errors: z.array(z.object({ path: z.string(), message: z.string(), pointer: z.string().optional() })).optional(),
  request_id: z.string().describe("The request's id, as in its `X-Request-Id` answer header: the client's own `X-Request-Id` when acceptable, else one made by the server; the server's log lines for the request carry it as `req_id`."),
});

type _ProblemMatchesFieldError = Assert<Same<NonNullable<z.infer<typeof Problem>["errors"]>[number], FieldError>>;

export function toJsonSchema(schema: z.ZodType, io: Io): JsonSchema {
  const json: JsonSchema = z.toJSONSchema(schema, {
    io,
    target: "draft-2020-12",
    // Answers may gain fields (docs/api.md): only request bodies refuse unknown properties.
    override: ({ jsonSchema }) => {
      if (io === "output" && jsonSchema.additionalProperties === false) delete jsonSchema.additionalProperties;
    },
  });
  delete json.$schema;
  if ("$defs" in json) throw new Error("openapi: a schema produced $defs; inline it or give it a component");
  return json;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** Query parameters are described by name: the same name means the same thing on every route. */
const QUERY_DESCRIPTIONS: Record<string, string> = {
  limit: "Page size, 1–250.",
  cursor: "The `next_cursor` of the previous page.",
  q: "Search text matched against uid and name.",
  consumer: "Only this consumer's (id or uid).",
  endpoint_id: "Only this endpoint's.",
  event_type: "Only messages of this event type.",
  since: "ISO-8601 timestamp: created at or after.",
  kind: "Only alerts of this kind.",
  until: "ISO-8601 timestamp: created before.",
  state: "Only recoveries in this state.",
  outcome: "Only items with this outcome.",
  format: "`csv` answers every item at once as text/csv (streamed), ignoring limit and cursor.",
};

export const ERROR_RESPONSES: Record<ErrorStatus, { name: string; description: string; retryAfter?: boolean }> = {
  400: { name: "BadRequest", description: "`invalid_json`, or `validation_failed` for an invalid query string or cursor." },
  401: { name: "Unauthorized", description: "`unauthorized`: the API key is missing, unknown or revoked." },
  403: {
    name: "Forbidden",
    description: "`forbidden`: a viewer's dashboard session may not change anything; `origin_mismatch`: a change with a session cookie from another origin.",
  },
  404: { name: "NotFound", description: "`not_found`: no such resource." },
  409: { name: "Conflict", description: "A conflict; `code` says which." },
  410: { name: "Gone", description: "`cursor_expired`: what it points to is older than what is kept." },
  413: { name: "PayloadTooLarge", description: "`payload_too_large`: the body is over the limit." },
  422: { name: "ValidationFailed", description: "`validation_failed`: the body is invalid; `errors` lists the fields." },
  429: { name: "RateLimited", description: "`rate_limited`: over this API key's request rate.", retryAfter: true },
  500: { name: "InternalError", description: "`internal_error`: quote the request id in `detail`." },
  503: { name: "ServiceUnavailable", description: "`service_unavailable`: the database is unreachable; retry shortly.", retryAfter: true },
};

const RETRY_AFTER = { "Retry-After": { description: "Seconds to wait before retrying.", schema: { type: "integer" } } };

export function problemResponse(status: ErrorStatus, description = ERROR_RESPONSES[status].description) {
  return {
    description,
    ...(ERROR_RESPONSES[status].retryAfter ? { headers: RETRY_AFTER } : {}),
    content: { "application/problem+json": { schema: ref("Problem") } },
  };
}

/** An error of the Svix surface: `{code, detail}` (SvixError), a 422 `{detail: [{loc, msg, type}]}` (lib/svix/openapi.ts). */
function svixErrorResponse(status: ErrorStatus, description = ERROR_RESPONSES[status].description) {
  return {
    description: description.replace("`unauthorized`", "`authentication_failed`"),
    ...(ERROR_RESPONSES[status].retryAfter ? { headers: RETRY_AFTER } : {}),
    content: { "application/json": { schema: ref(status === 422 ? "SvixValidationError" : "SvixError") } },
  };
}

function errorResponses(op: Operation) {
  const statuses = new Set<ErrorStatus>();
  if (op.query || op.body) statuses.add(400);
  if (!op.public) statuses.add(401);
  if (!op.public && op.method !== "get") statuses.add(403);
  if (op.params) statuses.add(404);
  if (op.body) statuses.add(413).add(422);
  if (!op.public) statuses.add(429).add(503);
  statuses.add(500);
  for (const status of Object.keys(op.errors ?? {})) statuses.add(Number(status) as ErrorStatus);
  const responses: Record<string, unknown> = {};
  for (const status of [...statuses].sort((a, b) => a - b)) {
    const custom = op.errors?.[status];
    if (op.errorFormat === "svix") responses[String(status)] = svixErrorResponse(status, custom);
    else responses[String(status)] = custom ? problemResponse(status, custom) : { $ref: `#/components/responses/${ERROR_RESPONSES[status].name}` };
  }
  return responses;
}

function pathParameters(op: Operation) {
  const placeholders = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const declared = Object.keys(op.params ?? {});
  if (placeholders.join() !== declared.join()) {
    throw new Error(`openapi: ${op.method} ${op.path} declares path params [${declared}] for [${placeholders}]`);
  }
  return placeholders.map((name) => ({
    name,
    in: "path",
    required: true,
    description: op.params![name],
    schema: { type: "string", minLength: 1 },
  }));
}

function queryParameters(query: z.ZodType | undefined) {
  if (!query) return [];
  const json = toJsonSchema(query, "input");
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, schema]) => ({
    name,
    in: "query",
    required: required.has(name),
    ...(QUERY_DESCRIPTIONS[name] ? { description: QUERY_DESCRIPTIONS[name] } : {}),
    schema,
  }));
}

/** A documented schema's component name: the domain's schema map names it (lib/api-document/document.ts). */
export type NameOf = (schema: z.ZodType, io: Io) => string;

function successResponse(success: Pick<Operation["success"], "description" | "headers" | "schema" | "list" | "status">, nameOf: NameOf) {
  const schema = success.schema
    ? success.list
      ? {
          type: "object",
          properties: {
            data: { type: "array", items: ref(nameOf(success.schema, "output")) },
            next_cursor: { type: ["string", "null"], description: "Pass as `cursor` for the next page; null on the last page." },
          },
          required: ["data", "next_cursor"],
        }
      : ref(nameOf(success.schema, "output"))
    : undefined;
  return {
    description: success.description,
    ...(success.headers ? { headers: success.headers } : {}),
    ...(schema ? { content: { "application/json": { schema } } } : success.status === 204 ? {} : { content: { "application/json": { schema: { type: "object" } } } }),
  };
}

export function operationObject(op: Operation, nameOf: NameOf) {
  const parameters = [
    ...pathParameters(op),
    ...queryParameters(op.query),
    ...(op.headers ?? []).map((h) => ({
      name: h.name,
      in: "header",
      required: h.required ?? false,
      description: h.description,
      schema: toJsonSchema(h.schema, "input"),
    })),
  ];
  return {
    operationId: op.operationId,
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: [op.tag],
    security: op.public ? (op.pollToken ? [{ pollToken: [] }] : []) : op.sessionOnly ? [{ dashboardSession: [] }] : [{ apiKey: [] }],
    ...(parameters.length ? { parameters } : {}),
    ...(op.body
      ? {
          requestBody: {
            required: op.body.required ?? true,
            ...(op.body.description ? { description: op.body.description } : {}),
            content: { "application/json": { schema: ref(nameOf(op.body.schema, "input")) } },
          },
        }
      : {}),
    responses: {
      [String(op.success.status)]: successResponse(op.success, nameOf),
      ...Object.fromEntries((op.also ?? []).map((other) => [String(other.status), successResponse(other, nameOf)])),
      ...errorResponses(op),
    },
  };
}

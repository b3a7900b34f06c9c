import { alertSchemas, alertTag } from "../alerts/openapi";
import { apiKeySchemas, apiKeyTag } from "../api-keys/openapi";
import { auditSchemas, auditTag } from "../audit-log/openapi";
import { attemptSchemas, attemptTag } from "../attempts/openapi";
import { consumerSchemas, consumerTag } from "../consumers/openapi";
import { endpointSchemas, endpointTag } from "../endpoints/openapi";
import { eventTypeSchemas, eventTypeTag } from "../event-types/openapi";
import { messageSchemas, messageTag } from "../messages/openapi";
import { operatorSchemas, operatorTag } from "../operators/openapi";
import { operatorSessionSchemas, operatorSessionTag } from "../operator-sessions/openapi";
import { twoFactorSchemas, twoFactorTag } from "../two-factor/openapi";
import { pollingSchemas, pollingTag } from "../polling/openapi";
import { portalSchemas, portalTag } from "../portal/openapi";
import { recoverySchemas, recoveryTag } from "../recoveries/openapi";
import { retentionSchemas, retentionTag } from "../retention/openapi";
import { statsSchemas, statsTag } from "../stats/openapi";
import { svixSchemas, svixTag } from "../svix/openapi";
import { HTTP_METHODS } from "../http/methods";
import { routeContract } from "../http/route-contract";
import type { z } from "zod";
import { output, type ErrorStatus, type Io, type Method, type Operation, type SchemaEntry, type Tag } from "../openapi/operation";
import { ERROR_RESPONSES, operationObject, Problem, problemResponse, toJsonSchema } from "./render";

export type { Operation } from "../openapi/operation";

/**
 * The OpenAPI 3.1 document of /api/v1, generated from the routes themselves: each route file
 * declares its operation beside its handler (lib/http/api-route.ts), and app/api/v1/routes.ts lists
 * every route file by its path. Each domain names the schemas its routes document (components) and
 * its tag in lib/<domain>/openapi.ts, with the type assertions that tie its documented answers to
 * the verbs' return types; this file puts them together, in the order of DOMAINS below.
 */
type Domain = { tag: Tag; schemas: Record<string, SchemaEntry> };

const DOMAINS: Domain[] = [
  { tag: consumerTag, schemas: consumerSchemas },
  { tag: endpointTag, schemas: endpointSchemas },
  { tag: pollingTag, schemas: pollingSchemas },
  { tag: eventTypeTag, schemas: eventTypeSchemas },
  { tag: messageTag, schemas: messageSchemas },
  { tag: attemptTag, schemas: attemptSchemas },
  { tag: alertTag, schemas: alertSchemas },
  { tag: recoveryTag, schemas: recoverySchemas },
  { tag: retentionTag, schemas: retentionSchemas },
  { tag: statsTag, schemas: statsSchemas },
  { tag: apiKeyTag, schemas: apiKeySchemas },
  { tag: operatorTag, schemas: operatorSchemas },
  { tag: operatorSessionTag, schemas: operatorSessionSchemas },
  { tag: twoFactorTag, schemas: twoFactorSchemas },
  { tag: auditTag, schemas: auditSchemas },
  { tag: portalTag, schemas: portalSchemas },
  { tag: svixTag, schemas: svixSchemas },
  { tag: { name: "Meta", description: "This document." }, schemas: {} },
];

/** The operations the routes declare, with the method and path they are exported under. */
export function routeOperations(routes: Record<string, Record<string, unknown>>): Operation[] {
  return Object.entries(routes).flatMap(([path, module]) =>
    HTTP_METHODS.flatMap((method) => {
      const contract = routeContract(module[method]);
      const doc = contract?.doc;
      const sessionOnly = contract !== undefined && "role" in contract && (contract.role === "own" || contract.apiKey === false);
      return doc ? [{ ...doc, ...(sessionOnly ? { sessionOnly } : {}), method: method.toLowerCase() as Method, path }] : [];
    }),
  );
}

/**
 * The component name of each zod object a route documents, by how it is read (a body as input, an
 * answer as output): the domains' schema maps are the one place that names a component.
 */
function componentNames(schemas: Record<string, SchemaEntry>): Record<Io, Map<z.ZodType, string>> {
  const names: Record<Io, Map<z.ZodType, string>> = { input: new Map(), output: new Map() };
  for (const [name, { schema, io }] of Object.entries(schemas)) {
    const other = names[io].get(schema);
    if (other) throw new Error(`openapi: one schema is named both ${other} and ${name}`);
    names[io].set(schema, name);
  }
  return names;
}

export function buildOpenApiDocument(routes: Record<string, Record<string, unknown>>): object {
  const schemas: Record<string, SchemaEntry> = { Problem: output(Problem) };
  for (const domain of DOMAINS) {
    for (const [name, entry] of Object.entries(domain.schemas)) {
      if (schemas[name]) throw new Error(`openapi: two domains name a schema ${name}`);
      schemas[name] = entry;
    }
  }
  const names = componentNames(schemas);
  const tags = new Set(DOMAINS.map((d) => d.tag.name));
  const paths: Record<string, Record<string, unknown>> = {};
  const ids = new Set<string>();
  for (const op of routeOperations(routes)) {
    if (ids.has(op.operationId)) throw new Error(`openapi: duplicate operationId ${op.operationId}`);
    ids.add(op.operationId);
    if (!tags.has(op.tag)) throw new Error(`openapi: ${op.operationId} has the unknown tag ${op.tag}`);
    const nameOf = (schema: z.ZodType, io: Io): string => {
      const name = names[io].get(schema);
      if (!name) throw new Error(`openapi: ${op.operationId} documents an ${io} schema that no domain's schema map names`);
      return name;
    };
    const item = (paths[op.path] ??= {});
    if (item[op.method]) throw new Error(`openapi: ${op.method} ${op.path} is listed twice`);
    item[op.method] = operationObject(op, nameOf);
  }

  return {
    openapi: "3.1.0",
    info: {
      title: "Webhook Admin API",
      version: "1",
      description:
        "Send webhooks to your consumers' endpoints. JSON in, JSON out; timestamps are ISO-8601 UTC strings. " +
        "Errors are `application/problem+json` with a stable snake_case `code` and the request's `request_id`. " +
        "Every answer carries `X-Request-Id`: the request's own when it sent an acceptable one (1–128 printable ASCII characters), else a new one. " +
        "Lists take `limit` and `cursor` and answer `{data, next_cursor}`, newest first.",
    },
    servers: [{ url: "/api/v1" }],
    security: [{ apiKey: [] }],
    tags: DOMAINS.map((d) => ({ ...d.tag })),
    paths,
    components: {
      securitySchemes: {
        pollToken: {
          type: "http",
          scheme: "bearer",
          description: "A polling endpoint's poll token, `Authorization: Bearer ept_…` (POST /endpoints/{id}/poll-tokens): it reads that endpoint's messages and nothing else.",
        },
        apiKey: {
          type: "http",
          scheme: "bearer",
          description:
            "An API key, `Authorization: Bearer sk_…`. Create one with `npm run cli -- api-key create --name NAME`. " +
            "Without one, the dashboard's session cookie is accepted too: its changes must come from APP_URL's origin, and a viewer's are refused (403).",
        },
        dashboardSession: {
          type: "apiKey",
          in: "cookie",
          name: "authjs.session-token",
          description:
            "An operator's dashboard session (signed in on /login; `__Secure-authjs.session-token` over https). The only credential of the routes about the signed-in operator's own account and about operators' sessions: API keys and portal sessions are refused them (403).",
        },
      },
      schemas: Object.fromEntries(Object.entries(schemas).map(([name, { schema, io }]) => [name, toJsonSchema(schema, io)])),
      responses: Object.fromEntries(
        Object.keys(ERROR_RESPONSES).map((key) => {
          const status = Number(key) as ErrorStatus;
          return [ERROR_RESPONSES[status].name, problemResponse(status)];
        }),
      ),
    },
  };
}

import { alertOperations, alertSchemas, alertTag } from "../alerts/openapi";
import { apiKeyOperations, apiKeySchemas, apiKeyTag } from "../api-keys/openapi";
import { auditOperations, auditSchemas, auditTag } from "../audit/openapi";
import { attemptOperations, attemptSchemas, attemptTag } from "../attempts/openapi";
import { consumerOperations, consumerSchemas, consumerTag } from "../consumers/openapi";
import { endpointOperations, endpointSchemas, endpointTag } from "../endpoints/openapi";
import { eventTypeOperations, eventTypeSchemas, eventTypeTag } from "../event-types/openapi";
import { messageOperations, messageSchemas, messageTag } from "../messages/openapi";
import { operatorOperations, operatorSchemas, operatorTag } from "../operators/openapi";
import { portalOperations, portalSchemas, portalTag } from "../portal/openapi";
import { recoveryOperations, recoverySchemas, recoveryTag } from "../recoveries/openapi";
import { statsOperations, statsSchemas, statsTag } from "../stats/openapi";
import { output, type ErrorStatus, type Operation, type SchemaEntry, type Tag } from "./operation";
import { ERROR_RESPONSES, operationObject, Problem, problemResponse, toJsonSchema } from "./render";

export type { Operation } from "./operation";

/**
 * The OpenAPI 3.1 document of /api/v1, generated from the zod schemas the routes parse with and
 * answer in. Each domain describes its own routes beside its schemas, in lib/<domain>/openapi.ts;
 * this file only puts them together. tests/openapi.test.ts fails when a route file under
 * app/api/v1 is missing from the document.
 *
 * To add a domain's routes: write lib/<domain>/openapi.ts exporting `<domain>Tag` ({name,
 * description}), `<domain>Schemas` (component name → input(zodSchema) or output(zodSchema)) and
 * `<domain>Operations` (Operation[], each with that tag, naming components by their names), with
 * the type assertions that tie its documented answers to the verbs' return types; then add one
 * line for it to DOMAINS below, in the order its tag should be listed.
 */
type Domain = { tag: Tag; schemas: Record<string, SchemaEntry>; operations: Operation[] };

const meta: Domain = {
  tag: { name: "Meta", description: "This document." },
  schemas: {},
  operations: [
    {
      method: "get",
      path: "/openapi.json",
      operationId: "getOpenApiDocument",
      summary: "This OpenAPI document",
      tag: "Meta",
      public: true,
      success: { status: 200, description: "The OpenAPI 3.1 document of /api/v1." },
    },
  ],
};

const DOMAINS: Domain[] = [
  { tag: consumerTag, schemas: consumerSchemas, operations: consumerOperations },
  { tag: endpointTag, schemas: endpointSchemas, operations: endpointOperations },
  { tag: eventTypeTag, schemas: eventTypeSchemas, operations: eventTypeOperations },
  { tag: messageTag, schemas: messageSchemas, operations: messageOperations },
  { tag: attemptTag, schemas: attemptSchemas, operations: attemptOperations },
  { tag: alertTag, schemas: alertSchemas, operations: alertOperations },
  { tag: recoveryTag, schemas: recoverySchemas, operations: recoveryOperations },
  { tag: statsTag, schemas: statsSchemas, operations: statsOperations },
  { tag: apiKeyTag, schemas: apiKeySchemas, operations: apiKeyOperations },
  { tag: operatorTag, schemas: operatorSchemas, operations: operatorOperations },
  { tag: auditTag, schemas: auditSchemas, operations: auditOperations },
  { tag: portalTag, schemas: portalSchemas, operations: portalOperations },
  meta,
];

export function buildOpenApiDocument(): object {
  const schemas: Record<string, SchemaEntry> = { Problem: output(Problem) };
  for (const domain of DOMAINS) {
    for (const [name, entry] of Object.entries(domain.schemas)) {
      if (schemas[name]) throw new Error(`openapi: two domains name a schema ${name}`);
      schemas[name] = entry;
    }
  }
  const tags = new Set(DOMAINS.map((d) => d.tag.name));
  const paths: Record<string, Record<string, unknown>> = {};
  const ids = new Set<string>();
  for (const op of DOMAINS.flatMap((d) => d.operations)) {
    if (ids.has(op.operationId)) throw new Error(`openapi: duplicate operationId ${op.operationId}`);
    ids.add(op.operationId);
    if (!tags.has(op.tag)) throw new Error(`openapi: ${op.operationId} has the unknown tag ${op.tag}`);
    for (const name of [op.body?.schema, op.success.schema, ...(op.also ?? []).map((other) => other.schema)]) {
      if (name && !schemas[name]) throw new Error(`openapi: ${op.operationId} refers to the unknown schema ${name}`);
    }
    const item = (paths[op.path] ??= {});
    if (item[op.method]) throw new Error(`openapi: ${op.method} ${op.path} is listed twice`);
    item[op.method] = operationObject(op);
  }

  return {
    openapi: "3.1.0",
    info: {
      title: "Webhook Admin API",
      version: "1",
      description:
        "Send webhooks to your consumers' endpoints. JSON in, JSON out; timestamps are ISO-8601 UTC strings. " +
        "Errors are `application/problem+json` with a stable snake_case `code`. " +
        "Lists take `limit` and `cursor` and answer `{data, next_cursor}`, newest first.",
    },
    servers: [{ url: "/api/v1" }],
    security: [{ apiKey: [] }],
    tags: DOMAINS.map((d) => ({ ...d.tag })),
    paths,
    components: {
      securitySchemes: {
        apiKey: {
          type: "http",
          scheme: "bearer",
          description:
            "An API key, `Authorization: Bearer sk_…`. Create one with `npm run cli -- api-key create --name NAME`. " +
            "Without one, the dashboard's session cookie is accepted too: its changes must come from APP_URL's origin, and a viewer's are refused (403).",
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

import { findSchemaVersion, schemaVersionOf } from "@/lib/event-types";
import { EventTypeSchemaVersion } from "@/lib/event-types/schemas";
import { otherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { SCHEMA_VERSION } from "@/lib/openapi/params";

export const GET = withApi(async ({ params, ctx }) => json(await findSchemaVersion(ctx, params.name!, schemaVersionOf(params.version!))), {
  portal: "scoped",
  role: "read",
  doc: {
    operationId: "getEventTypeSchema",
    summary: "Get one version of an event type's schema",
    tag: "Event types",
    params: SCHEMA_VERSION,
    success: { status: 200, description: "The schema version.", schema: EventTypeSchemaVersion },
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });

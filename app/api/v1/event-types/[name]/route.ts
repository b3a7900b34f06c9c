import { UpdateEventTypeInput, findEventType, updateEventType } from "@/lib/event-types";
import { EventType } from "@/lib/event-types/schemas";
import { otherMethods } from "@/lib/http/methods";
import { json, parseBody } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { EVENT_TYPE } from "@/lib/openapi/params";

export const GET = withApi(async ({ params, ctx }) => json(await findEventType(ctx, params.name!)), {
  portal: "scoped",
  role: "read",
  doc: {
    operationId: "getEventType",
    summary: "Get an event type",
    tag: "Event types",
    params: EVENT_TYPE,
    success: { status: 200, description: "The event type, with its current schema and `schema_version`.", schema: EventType },
  },
});

export const PATCH = withApi(async ({ req, params, ctx }) => json(await updateEventType({ ctx, name: params.name!, input: await parseBody(req, UpdateEventTypeInput) })), {
  portal: false,
  role: "write",
  doc: {
    operationId: "updateEventType",
    summary: "Update an event type",
    description:
      "Changes the fields given. A `schema` that differs from the current one becomes the next `schema_version` (the ones before are kept); `enforcement` says what it does to messages at ingest. The example is checked against the schema whenever either is saved.",
    tag: "Event types",
    params: EVENT_TYPE,
    body: { schema: UpdateEventTypeInput },
    success: { status: 200, description: "The event type.", schema: EventType },
    errors: {
      422: "`validation_failed`; `invalid_schema`: the schema breaks a rule or does not compile (JSON Schema 2020-12); `invalid_example`: the example does not match the schema — each fault in `errors` with its JSON `pointer`.",
    },
  },
});

export const { POST, PUT, DELETE, OPTIONS } = otherMethods({ GET, PATCH });

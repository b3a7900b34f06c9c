import { CreateEventTypeInput, createEventType, listEventTypes } from "@/lib/event-types";
import { json, parseBody, parseQuery } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { PageQuery } from "@/lib/pagination";
import { otherMethods } from "@/lib/http/methods";
import { EventType } from "@/lib/event-types/schemas";

export const POST = withApi(async ({ req, ctx }) =>
  json(await createEventType({ ctx, input: await parseBody(req, CreateEventTypeInput) }), 201), {
  portal: false,
  role: "write",
  doc: {
    operationId: "createEventType",
    summary: "Create an event type",
    tag: "Event types",
    body: { schema: CreateEventTypeInput },
    success: { status: 201, description: "The new event type.", schema: EventType },
    errors: {
      409: "`event_type_exists`: an event type of this name exists.",
      422: "`validation_failed`; `invalid_schema`: the schema breaks a rule or does not compile (JSON Schema 2020-12); `invalid_example`: the example does not match the schema — each fault in `errors` with its JSON `pointer`.",
    },
  },
});

export const GET = withApi(async ({ req, ctx }) => json(await listEventTypes(ctx, parseQuery(req, PageQuery))), {
  portal: "scoped",
  role: "read",
  doc: {
    operationId: "listEventTypes",
    summary: "List event types",
    tag: "Event types",
    query: PageQuery,
    success: { status: 200, description: "A page of event types, newest first.", schema: EventType, list: true },
  },
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });

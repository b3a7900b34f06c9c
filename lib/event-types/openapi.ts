import { input, output, type Operation } from "../openapi/operation";
import { PageQuery } from "../pagination";
import { CreateEventTypeInput, EventType } from "./schemas";

// This domain's part of the OpenAPI document, assembled by lib/openapi/document.ts.
export const eventTypeTag = { name: "Event types", description: "The catalogue of event names messages may carry." } as const;

export const eventTypeSchemas = {
  EventType: output(EventType),
  CreateEventTypeInput: input(CreateEventTypeInput),
};

export const eventTypeOperations: Operation[] = [
  {
    method: "post",
    path: "/event-types",
    operationId: "createEventType",
    summary: "Create an event type",
    tag: "Event types",
    body: { schema: "CreateEventTypeInput" },
    success: { status: 201, description: "The new event type.", schema: "EventType" },
    errors: { 409: "`event_type_exists`: an event type of this name exists." },
  },
  {
    method: "get",
    path: "/event-types",
    operationId: "listEventTypes",
    summary: "List event types",
    tag: "Event types",
    query: PageQuery,
    success: { status: 200, description: "A page of event types, newest first.", schema: "EventType", list: true },
  },
];

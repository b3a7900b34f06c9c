import { input, output } from "../openapi/operation";

import { CreateEventTypeInput, EventType, EventTypeSchemaVersion, UpdateEventTypeInput } from "./schemas";

// This domain's part of the OpenAPI document, assembled by lib/api-document/document.ts.
export const eventTypeTag = { name: "Event types", description: "The catalogue of event names messages may carry." } as const;

export const eventTypeSchemas = {
  EventType: output(EventType),
  CreateEventTypeInput: input(CreateEventTypeInput),
  UpdateEventTypeInput: input(UpdateEventTypeInput),
  EventTypeSchemaVersion: output(EventTypeSchemaVersion),
};

import { input, output } from "../openapi/operation";

import { CreateEventTypeInput, EventType } from "./schemas";

// This domain's part of the OpenAPI document, assembled by lib/api-document/document.ts.
export const eventTypeTag = { name: "Event types", description: "The catalogue of event names messages may carry." } as const;

export const eventTypeSchemas = {
  EventType: output(EventType),
  CreateEventTypeInput: input(CreateEventTypeInput),
};

export * from "./schemas";
export { createEventType } from "./create-event-type";
export { deleteEventType, updateEventType } from "./update-event-type";
export { findEventType, findSchemaVersion, listEventTypes, listSchemaVersions, schemaVersionOf, schemaVersionTypeScript } from "./queries";
export { forgetPayloadCheck, payloadChecks, PAYLOAD_CHECK_TTL_MS, type PayloadCheck } from "./payload-checks";

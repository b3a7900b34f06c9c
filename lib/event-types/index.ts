export * from "./schemas";
export { createEventType } from "./create-event-type";
export { deleteEventType, updateEventType } from "./update-event-type";
export { findEventType, listEventTypes } from "./queries";

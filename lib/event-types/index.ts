export * from "./schemas";
export { createEventType } from "./create-event-type";
export { listEventTypes } from "./queries";

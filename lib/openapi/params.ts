/** Path parameters as the OpenAPI document describes them, shared by the routes that take them. */
export const CONSUMER = { consumer: "The consumer's id (`con_…`) or its `uid`." };
export const ENDPOINT = { id: "The endpoint's id (`ep_…`)." };
export const MESSAGE = { id: "The message's id (`msg_…`)." };
export const RECOVERY = { id: "The recovery's id (`rec_…`)." };
export const ALERT_CHANNEL = { id: "The alert channel's id (`ach_…`)." };
export const KEY = { id: "The key's id (`key_…`)." };
export const EVENT_TYPE = { name: "The event type's name (`invoice.paid`)." };
export const SCHEMA_VERSION = { ...EVENT_TYPE, version: "A version of the event type's schema (1, 2, …)." };

import { z } from "zod";
import type { eventTypes } from "../db/schema";
import { Text, jsonObject, storableJson } from "../schemas";

export const EventTypeName = z
  .string()
  .min(1)
  .max(256)
  .regex(/^[a-zA-Z0-9_-]+(\.[a-zA-Z0-9_-]+)*$/, "must be dot-separated words of letters, digits, _ and -, like invoice.paid");

export const CreateEventTypeInput = z.strictObject({
  name: EventTypeName,
  description: Text.max(2000).optional(),
  schema: jsonObject().nullable().optional(),
  /** Any JSON value but null: a sample payload of this event type. */
  example: storableJson(z.unknown().refine((v) => v !== null, "must not be null; leave it out instead")).optional(),
});
export type CreateEventTypeInput = z.infer<typeof CreateEventTypeInput>;

/** What the verbs take beyond our API's input: the Svix API's archive, deprecation and group (lib/svix). */
export type EventTypeFlags = { archived?: boolean; deprecated?: boolean; group_name?: string | null };
export type NewEventType = CreateEventTypeInput & EventTypeFlags;
/** A change to an event type: the fields given; `schema: null` and `group_name: null` unset. */
export type EventTypeChanges = Partial<Omit<CreateEventTypeInput, "name">> & EventTypeFlags;

export const EventType = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  schema: z.record(z.string(), z.unknown()).nullable(),
  example: z.unknown(),
  /** Hidden from catalogs (archived through the Svix API); messages of it are still delivered. */
  archived: z.boolean(),
  deprecated: z.boolean(),
  /** A heading to group it under in catalogs, or null. */
  group_name: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type EventType = z.infer<typeof EventType>;

export function toEventType(row: typeof eventTypes.$inferSelect): EventType {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    schema: row.schema ?? null,
    example: row.example ?? null,
    archived: row.archived,
    deprecated: row.deprecated,
    group_name: row.groupName,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

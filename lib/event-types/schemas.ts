import { z } from "zod";
import type { eventTypes, eventTypeSchemas } from "../db/schema";
import { SCHEMA_ENFORCEMENTS } from "../db/schema/enums";
import { Text, jsonObject, storableJson } from "../schemas";

export const EventTypeName = z
  .string()
  .min(1)
  .max(256)
  .regex(/^[a-zA-Z0-9_-]+(\.[a-zA-Z0-9_-]+)*$/, "must be dot-separated words of letters, digits, _ and -, like invoice.paid");

/** What the schema does to a message at ingest: nothing, mark it (`warn`), or refuse it (`reject`, 422 `payload_invalid`). */
export const SchemaEnforcement = z.enum(SCHEMA_ENFORCEMENTS);

/** Any JSON value but null: a sample payload of this event type. */
const Example = storableJson(z.unknown().refine((v) => v !== null, "must not be null; leave it out instead"));

export const CreateEventTypeInput = z.strictObject({
  name: EventTypeName,
  description: Text.max(2000).optional(),
  /** A JSON Schema (2020-12), checked when saved (lib/event-schemas); each change is a new version. */
  schema: jsonObject().nullable().optional(),
  /** Checked against the schema when either is saved. */
  example: Example.optional(),
  enforcement: SchemaEnforcement.optional(),
});
export type CreateEventTypeInput = z.infer<typeof CreateEventTypeInput>;

/** PATCH /event-types/{name}: the fields given; `schema: null` and `example: null` remove them. */
export const UpdateEventTypeInput = z.strictObject({
  description: CreateEventTypeInput.shape.description,
  schema: CreateEventTypeInput.shape.schema,
  example: Example.nullable().optional(),
  enforcement: SchemaEnforcement.optional(),
});
export type UpdateEventTypeInput = z.infer<typeof UpdateEventTypeInput>;

/** What the verbs take beyond our API's input: the Svix API's archive, deprecation and group (lib/svix). */
export type EventTypeFlags = { archived?: boolean; deprecated?: boolean; group_name?: string | null };
export type NewEventType = CreateEventTypeInput & EventTypeFlags;
/** A change to an event type: the fields given; `schema: null` and `group_name: null` unset. */
export type EventTypeChanges = UpdateEventTypeInput & EventTypeFlags;

export const EventType = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  schema: z.record(z.string(), z.unknown()).nullable(),
  /** 0 before any schema; one more on each change of `schema`, whose every version is kept (GET /event-types/{name}/schemas). */
  schema_version: z.number().int(),
  enforcement: SchemaEnforcement,
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
    schema_version: row.schemaVersion,
    enforcement: row.enforcement,
    example: row.example ?? null,
    archived: row.archived,
    deprecated: row.deprecated,
    group_name: row.groupName,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** One kept version of an event type's schema; `schema` null: the version that removed it. */
export const EventTypeSchemaVersion = z.object({
  event_type: z.string(),
  version: z.number().int(),
  schema: z.record(z.string(), z.unknown()).nullable(),
  created_at: z.string(),
});
export type EventTypeSchemaVersion = z.infer<typeof EventTypeSchemaVersion>;

export function toSchemaVersion(name: string, row: Pick<typeof eventTypeSchemas.$inferSelect, "version" | "schema" | "createdAt">): EventTypeSchemaVersion {
  return { event_type: name, version: row.version, schema: row.schema ?? null, created_at: row.createdAt.toISOString() };
}

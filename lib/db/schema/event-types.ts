import { boolean, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, updatedAt } from "./columns";
import type { SchemaEnforcement } from "./enums";

export const eventTypes = pgTable(
  "event_types",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    /** The current JSON Schema (2020-12), or null; every value it has had is kept in event_type_schemas. */
    schema: jsonb("schema").$type<Record<string, unknown> | null>(),
    /** 0 before any schema; one more on each change of `schema` (its row in event_type_schemas). */
    schemaVersion: integer("schema_version").notNull().default(0),
    /** What the schema does to a message at ingest (SCHEMA_ENFORCEMENTS). */
    enforcement: text("enforcement").$type<SchemaEnforcement>().notNull().default("off"),
    /** A sample payload: shown in the catalog, and sent by a test event when none is given. */
    example: jsonb("example").$type<unknown>(),
    /** Hidden from catalogs and pickers; messages of it are still delivered. */
    archived: boolean("archived").notNull().default(false),
    /** Still served, marked as on its way out in catalogs. */
    deprecated: boolean("deprecated").notNull().default(false),
    /** A heading to group it under in catalogs. */
    groupName: text("group_name"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("event_types_name_key").on(t.name),
    index("event_types_created_idx").on(t.createdAt.desc(), t.id.desc()),
  ],
);

/**
 * Every schema an event type has had, by version: written with the change, never changed after. A
 * version whose `schema` is null is the schema's removal. Deleted with the event type.
 */
export const eventTypeSchemas = pgTable(
  "event_type_schemas",
  {
    eventTypeId: text("event_type_id")
      .notNull()
      .references(() => eventTypes.id, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    schema: jsonb("schema").$type<Record<string, unknown> | null>(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.eventTypeId, t.version] })],
);

import { boolean, index, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, updatedAt } from "./columns";

export const eventTypes = pgTable(
  "event_types",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    schema: jsonb("schema").$type<Record<string, unknown> | null>(),
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

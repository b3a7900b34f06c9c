import { index, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
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
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("event_types_name_key").on(t.name),
    index("event_types_created_idx").on(t.createdAt.desc(), t.id.desc()),
  ],
);

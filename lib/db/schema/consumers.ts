import { sql } from "drizzle-orm";
import { index, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, updatedAt } from "./columns";

export const consumers = pgTable(
  "consumers",
  {
    id: text("id").primaryKey(),
    uid: text("uid").notNull(),
    name: text("name").notNull(),
    metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull().default({}),
    alertEmails: text("alert_emails").array().notNull().default(sql`'{}'::text[]`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("consumers_uid_key").on(t.uid),
    index("consumers_created_idx").on(t.createdAt.desc(), t.id.desc()),
  ],
);

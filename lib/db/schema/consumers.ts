import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, updatedAt } from "./columns";

export const consumers = pgTable(
  "consumers",
  {
    id: text("id").primaryKey(),
    uid: text("uid").notNull(),
    name: text("name").notNull(),
    metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull().default({}),
    alertEmails: text("alert_emails").array().notNull().default(sql`'{}'::text[]`),
    /** The application's id in the Svix deployment it was imported from (`app_…`): the Svix API takes it too. */
    svixId: text("svix_id"),
    /** Svix's `throttleRate`, kept and echoed on the Svix surface; the default rate of endpoints made there. */
    throttleRate: integer("throttle_rate"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("consumers_uid_key").on(t.uid),
    uniqueIndex("consumers_svix_id_key").on(t.svixId).where(sql`${t.svixId} is not null`),
    index("consumers_created_idx").on(t.createdAt.desc(), t.id.desc()),
  ],
);

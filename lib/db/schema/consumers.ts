import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, ts, updatedAt } from "./columns";

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
    /**
     * Set when its erasure began (DELETE /consumers/{consumer}, lib/retention): from then it is gone
     * from every read, its personal fields are blanked, and its rows are erased in batches; the row
     * itself goes last.
     */
    deletedAt: ts("deleted_at"),
    /** Its share of the engine when several consumers have due work (claim/scan-due.sql): 1–100. */
    weight: integer("weight").notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("consumers_uid_key").on(t.uid),
    uniqueIndex("consumers_svix_id_key").on(t.svixId).where(sql`${t.svixId} is not null`),
    index("consumers_created_idx").on(t.createdAt.desc(), t.id.desc()),
    // The few consumers being erased, which lists across consumers leave out.
    index("consumers_deleted_idx").on(t.deletedAt).where(sql`${t.deletedAt} is not null`),
    check("consumers_weight_check", sql`${t.weight} between 1 and 100`),
  ],
);

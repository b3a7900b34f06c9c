import { text, timestamp } from "drizzle-orm/pg-core";

/**
 * Millisecond precision everywhere: keyset cursors carry timestamps through JavaScript Dates,
 * which would silently drop Postgres's microseconds and skip or repeat rows across pages.
 */
export const ts = (name: string) => timestamp(name, { withTimezone: true, precision: 3, mode: "date" });
export const createdAt = () => ts("created_at").notNull().defaultNow();
export const updatedAt = () => ts("updated_at").notNull().defaultNow();

/**
 * The consumer of a row that otherwise reaches it only through a parent (a queue row through its
 * delivery, a secret through its endpoint, a recovery's items and send log through the run): the
 * column a database sharded by consumer distributes on (docs/scaling.md). Every writer fills it.
 * Nullable for now, as an expand step (migration 0021): rows from before it, and rows the previous
 * release's processes write while an upgrade rolls, lack it; the contract step fills those and makes
 * it NOT NULL.
 */
export const consumerId = () => text("consumer_id");

import { timestamp } from "drizzle-orm/pg-core";

/**
 * Millisecond precision everywhere: keyset cursors carry timestamps through JavaScript Dates,
 * which would silently drop Postgres's microseconds and skip or repeat rows across pages.
 */
export const ts = (name: string) => timestamp(name, { withTimezone: true, precision: 3, mode: "date" });
export const createdAt = () => ts("created_at").notNull().defaultNow();
export const updatedAt = () => ts("updated_at").notNull().defaultNow();

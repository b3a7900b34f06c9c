import { integer, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, ts } from "./columns";

/** Live worker processes. A stale heartbeat marks a dead worker whose graphile locks are released. */
export const workers = pgTable("workers", {
  id: text("id").primaryKey(),
  hostname: text("hostname").notNull(),
  pid: integer("pid").notNull(),
  startedAt: createdAt(),
  heartbeatAt: ts("heartbeat_at").notNull().defaultNow(),
});

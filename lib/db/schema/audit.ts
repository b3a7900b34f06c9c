import { index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";
import type { ActorType } from "./enums";

/** Who did what: API keys, operators, portal sessions and the system itself. */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: text("id").primaryKey(),
    actorType: text("actor_type").$type<ActorType>().notNull(),
    actorId: text("actor_id"),
    action: text("action").notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [
    index("audit_events_target_idx").on(t.targetId, t.createdAt.desc()),
    index("audit_events_created_idx").on(t.createdAt.desc(), t.id.desc()),
  ],
);

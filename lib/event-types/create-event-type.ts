import { sql } from "drizzle-orm";
import type { Ctx } from "../context";
import { eventTypes } from "../db/schema";
import { ConflictError } from "../errors";
import { newId } from "../ids";
import { toEventType, type NewEventType } from "./schemas";

/**
 * A new event type; 409 `event_type_exists` for a name taken. An archived one of that name is
 * brought back instead, with what `input` says (Svix's rule: an archived name is free to create).
 */
export async function createEventType({ ctx, input }: { ctx: Ctx; input: NewEventType }) {
  const values = {
    description: input.description ?? "",
    schema: input.schema ?? null,
    example: input.example ?? null,
    archived: input.archived ?? false,
    deprecated: input.deprecated ?? false,
    groupName: input.group_name ?? null,
  };
  const [row] = await ctx.db
    .insert(eventTypes)
    .values({ id: newId("eventType"), name: input.name, ...values })
    .onConflictDoUpdate({ target: eventTypes.name, set: { ...values, updatedAt: sql`now()` }, setWhere: sql`${eventTypes.archived}` })
    .returning();
  if (!row) throw new ConflictError("event_type_exists", `The event type "${input.name}" already exists.`);
  return toEventType(row);
}

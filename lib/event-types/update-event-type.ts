import { eq, sql } from "drizzle-orm";
import type { Ctx } from "../context";
import { eventTypes } from "../db/schema";
import { NotFoundError } from "../errors";
import { toEventType, type EventTypeChanges } from "./schemas";

/** Changes the fields given of the event type of that name (archiving is `archived: true`). */
export async function updateEventType({ ctx, name, input }: { ctx: Ctx; name: string; input: EventTypeChanges }) {
  const [row] = await ctx.db
    .update(eventTypes)
    .set({
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.schema !== undefined ? { schema: input.schema } : {}),
      ...(input.example !== undefined ? { example: input.example } : {}),
      ...(input.archived !== undefined ? { archived: input.archived } : {}),
      ...(input.deprecated !== undefined ? { deprecated: input.deprecated } : {}),
      ...(input.group_name !== undefined ? { groupName: input.group_name } : {}),
      updatedAt: sql`now()`,
    })
    .where(eq(eventTypes.name, name))
    .returning();
  if (!row) throw new NotFoundError("event type", name);
  return toEventType(row);
}

/** Deletes the event type for good: messages of it keep their event type's name, and are still delivered. */
export async function deleteEventType({ ctx, name }: { ctx: Ctx; name: string }) {
  const deleted = await ctx.db.delete(eventTypes).where(eq(eventTypes.name, name)).returning({ id: eventTypes.id });
  if (deleted.length === 0) throw new NotFoundError("event type", name);
}

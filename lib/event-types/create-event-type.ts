import type { Ctx } from "../context";
import { eventTypes } from "../db/schema";
import { isUniqueViolation } from "../db/errors";
import { ConflictError } from "../errors";
import { newId } from "../ids";
import { toEventType, type CreateEventTypeInput } from "./schemas";

export async function createEventType({ ctx, input }: { ctx: Ctx; input: CreateEventTypeInput }) {
  try {
    const [row] = await ctx.db
      .insert(eventTypes)
      .values({ id: newId("eventType"), name: input.name, description: input.description ?? "", schema: input.schema ?? null, example: input.example ?? null })
      .returning();
    return toEventType(row!);
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConflictError("event_type_exists", `The event type "${input.name}" already exists.`);
    throw error;
  }
}

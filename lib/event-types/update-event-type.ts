import { eq, sql } from "drizzle-orm";
import { inTransaction, type Ctx } from "../context";
import { eventTypes, eventTypeSchemas } from "../db/schema";
import { NotFoundError } from "../errors";
import { forgetPayloadCheck } from "./payload-checks";
import { schemaChange } from "./schema-rules";
import { toEventType, type EventTypeChanges } from "./schemas";

type EventTypeRow = typeof eventTypes.$inferSelect;

/**
 * The changes given, written to the event type's row (locked by the caller's transaction): a
 * schema that changes is checked first, takes the next version and is kept in event_type_schemas
 * beside the ones before it.
 */
export async function applyEventTypeChanges(tx: Ctx, current: EventTypeRow, input: EventTypeChanges): Promise<EventTypeRow> {
  const { changed } = schemaChange(current, input);
  const version = changed ? current.schemaVersion + 1 : current.schemaVersion;
  const [row] = await tx.db
    .update(eventTypes)
    .set({
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(changed ? { schema: input.schema ?? null, schemaVersion: version } : {}),
      ...(input.example !== undefined ? { example: input.example } : {}),
      ...(input.enforcement !== undefined ? { enforcement: input.enforcement } : {}),
      ...(input.archived !== undefined ? { archived: input.archived } : {}),
      ...(input.deprecated !== undefined ? { deprecated: input.deprecated } : {}),
      ...(input.group_name !== undefined ? { groupName: input.group_name } : {}),
      updatedAt: sql`now()`,
    })
    .where(eq(eventTypes.id, current.id))
    .returning();
  if (changed) await tx.db.insert(eventTypeSchemas).values({ eventTypeId: current.id, version, schema: input.schema ?? null });
  return row!;
}

/** Changes the fields given of the event type of that name (archiving is `archived: true`). */
export async function updateEventType({ ctx, name, input }: { ctx: Ctx; name: string; input: EventTypeChanges }) {
  const row = await inTransaction(ctx, async (tx) => {
    const [current] = await tx.db.select().from(eventTypes).where(eq(eventTypes.name, name)).for("update").limit(1);
    if (!current) throw new NotFoundError("event type", name);
    return applyEventTypeChanges(tx, current, input);
  });
  forgetPayloadCheck(name);
  return toEventType(row);
}

/** Deletes the event type for good: messages of it keep their event type's name, and are still delivered. */
export async function deleteEventType({ ctx, name }: { ctx: Ctx; name: string }) {
  const deleted = await ctx.db.delete(eventTypes).where(eq(eventTypes.name, name)).returning({ id: eventTypes.id });
  if (deleted.length === 0) throw new NotFoundError("event type", name);
  forgetPayloadCheck(name);
}

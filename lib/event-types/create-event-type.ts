import { eq } from "drizzle-orm";
import { inTransaction, type Ctx } from "../context";
import { isUniqueViolation } from "../db/errors";
import { eventTypes, eventTypeSchemas } from "../db/schema";
import { ConflictError } from "../errors";
import { newId } from "../ids";
import { forgetPayloadCheck } from "./payload-checks";
import { schemaChange } from "./schema-rules";
import { toEventType, type NewEventType } from "./schemas";
import { applyEventTypeChanges } from "./update-event-type";

const taken = (name: string) => new ConflictError("event_type_exists", `The event type "${name}" already exists.`);

/**
 * A new event type, its schema (checked, with the example) as version 1; 409 `event_type_exists`
 * for a name taken. An archived one of that name is brought back instead, with what `input` says
 * (Svix's rule: an archived name is free to create) — its schema versions go on from where they were.
 */
export async function createEventType({ ctx, input }: { ctx: Ctx; input: NewEventType }) {
  const values = {
    description: input.description ?? "",
    schema: input.schema ?? null,
    example: input.example ?? null,
    enforcement: input.enforcement ?? "off",
    archived: input.archived ?? false,
    deprecated: input.deprecated ?? false,
    group_name: input.group_name ?? null,
  };
  try {
    const row = await inTransaction(ctx, async (tx) => {
      const [existing] = await tx.db.select().from(eventTypes).where(eq(eventTypes.name, input.name)).for("update").limit(1);
      if (existing && !existing.archived) throw taken(input.name);
      if (existing) return applyEventTypeChanges(tx, existing, values);
      const { changed } = schemaChange(null, values);
      const { group_name: groupName, ...rest } = values;
      const [made] = await tx.db
        .insert(eventTypes)
        .values({ id: newId("eventType"), name: input.name, ...rest, groupName, schemaVersion: changed ? 1 : 0 })
        .returning();
      if (changed) await tx.db.insert(eventTypeSchemas).values({ eventTypeId: made!.id, version: 1, schema: values.schema });
      return made!;
    });
    forgetPayloadCheck(input.name);
    return toEventType(row);
  } catch (error) {
    // Made by another request between the read and the insert.
    if (isUniqueViolation(error, "event_types_name_key")) throw taken(input.name);
    throw error;
  }
}

import { and, eq } from "drizzle-orm";
import { z } from "zod";
import type { Ctx } from "../context";
import { eventTypes } from "../db/schema";
import { CreateEventTypeInput, EventTypeName, createEventType, deleteEventType, findEventType, toEventType, updateEventType, type EventType } from "../event-types";
import { NotFoundError } from "../errors";
import { keyset, ListQuery, QueryBool } from "./request";

/**
 * Svix event types over ours, by name: `schemas["1"]` is our `schema`; DELETE archives (hidden from
 * catalogs, still delivered) and `?expunge=true` deletes; creating an archived name brings it back.
 */
const Schemas = z.record(z.string(), CreateEventTypeInput.shape.schema.unwrap().unwrap()).nullish();

const fields = {
  description: CreateEventTypeInput.shape.description.unwrap(),
  schemas: Schemas,
  archived: z.boolean().nullish(),
  deprecated: z.boolean().nullish(),
  groupName: z.string().min(1).max(256).nullish(),
  /** Svix's feature flags: accepted, not kept. */
  featureFlags: z.array(z.string()).nullish(),
};

export const EventTypeIn = z.object({ name: EventTypeName, ...fields });
export type EventTypeIn = z.infer<typeof EventTypeIn>;
export const EventTypeUpdate = z.object(fields);
export const EventTypePatch = z.object({ ...fields, description: fields.description.nullish() });
export type EventTypePatch = z.infer<typeof EventTypePatch>;

export const EventTypeOut = z.object({
  name: z.string(),
  description: z.string(),
  schemas: z.record(z.string(), z.unknown()).nullable(),
  archived: z.boolean(),
  deprecated: z.boolean(),
  groupName: z.string().nullable(),
  featureFlags: z.array(z.string()).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type EventTypeOut = z.infer<typeof EventTypeOut>;

export const ListEventTypesQuery = ListQuery.extend({ include_archived: QueryBool.optional(), with_content: QueryBool.optional() });
export const DeleteEventTypeQuery = z.object({ expunge: QueryBool.optional() });

export function toEventTypeOut(type: EventType, withContent = true): EventTypeOut {
  return {
    name: type.name,
    description: type.description,
    schemas: withContent && type.schema ? { "1": type.schema } : null,
    archived: type.archived,
    deprecated: type.deprecated,
    groupName: type.group_name,
    featureFlags: null,
    createdAt: type.created_at,
    updatedAt: type.updated_at,
  };
}

/** Our fields from Svix's: version "1" of `schemas` is the schema (the only version we keep). */
function ours(input: Omit<Partial<EventTypeIn>, "description"> & { description?: string | null }) {
  return {
    ...(input.description !== undefined ? { description: input.description ?? "" } : {}),
    ...(input.schemas !== undefined ? { schema: input.schemas?.["1"] ?? null } : {}),
    ...(input.archived !== undefined ? { archived: input.archived ?? false } : {}),
    ...(input.deprecated !== undefined ? { deprecated: input.deprecated ?? false } : {}),
    ...(input.groupName !== undefined ? { group_name: input.groupName } : {}),
  };
}

/** By name, A to Z unless `order=descending`; archived ones only with `include_archived=true`. */
export async function listSvixEventTypes(ctx: Ctx, query: z.infer<typeof ListEventTypesQuery>) {
  const page = keyset(eventTypes.name, query, "ascending");
  const rows = await ctx.db
    .select()
    .from(eventTypes)
    .where(and(page.where, query.include_archived ? undefined : eq(eventTypes.archived, false)))
    .orderBy(...page.orderBy)
    .limit(page.limit);
  return page.page(rows, (row) => row.name, (row) => toEventTypeOut(toEventType(row), query.with_content ?? false));
}

export async function createSvixEventType(ctx: Ctx, input: EventTypeIn): Promise<EventTypeOut> {
  return toEventTypeOut(await createEventType({ ctx, input: { name: input.name, ...ours(input) } }));
}

export async function getSvixEventType(ctx: Ctx, name: string): Promise<EventTypeOut> {
  return toEventTypeOut(await findEventType(ctx, name));
}

/** PUT: replaced whole (200), or made (201). */
export async function upsertSvixEventType(ctx: Ctx, name: string, input: z.infer<typeof EventTypeUpdate>): Promise<{ created: boolean; type: EventTypeOut }> {
  const whole = { archived: false, deprecated: false, groupName: null, schemas: null, ...input };
  try {
    return { created: false, type: toEventTypeOut(await updateEventType({ ctx, name, input: ours(whole) })) };
  } catch (error) {
    if (!(error instanceof NotFoundError) || !EventTypeName.safeParse(name).success) throw error;
    return { created: true, type: await createSvixEventType(ctx, { name, ...whole }) };
  }
}

export async function patchSvixEventType(ctx: Ctx, name: string, patch: EventTypePatch): Promise<EventTypeOut> {
  return toEventTypeOut(await updateEventType({ ctx, name, input: ours(patch) }));
}

export async function removeSvixEventType(ctx: Ctx, name: string, expunge: boolean): Promise<void> {
  if (expunge) await deleteEventType({ ctx, name });
  else await updateEventType({ ctx, name, input: { archived: true } });
}

import { and, asc, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import { inTransaction, type Ctx } from "../context";
import { eventTypes, eventTypeSchemas } from "../db/schema";
import { CreateEventTypeInput, EventTypeName, createEventType, deleteEventType, findEventType, toEventType, updateEventType, type EventType } from "../event-types";
import { NotFoundError } from "../errors";
import { SvixValidationError } from "./errors";
import { keyset, ListQuery, QueryBool } from "./request";

/**
 * Svix event types over ours, by name: `schemas` is our schema's kept versions by number
 * (`{"1": …, "2": …}`, the highest the current one); DELETE archives (hidden from catalogs, still
 * delivered) and `?expunge=true` deletes; creating an archived name brings it back.
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

/**
 * An event type's schema versions as Svix numbers them: Svix's record is what the event type has
 * now, so it holds the versions since the schema was last removed, counted from there — ours
 * minus `base`, the version that removed it (0 if none did).
 */
type Versions = { base: number; schemas: Map<string, Record<string, unknown>> };

/** The Svix versions of these event types, by id, in one read. */
async function versionsOf(ctx: Ctx, ids: string[]): Promise<Map<string, Versions>> {
  const byType = new Map<string, Versions>();
  if (ids.length === 0) return byType;
  const rows = await ctx.db
    .select({ id: eventTypeSchemas.eventTypeId, version: eventTypeSchemas.version, schema: eventTypeSchemas.schema })
    .from(eventTypeSchemas)
    .where(inArray(eventTypeSchemas.eventTypeId, ids))
    .orderBy(asc(eventTypeSchemas.version));
  for (const row of rows) {
    if (!row.schema) {
      byType.set(row.id, { base: row.version, schemas: new Map() });
      continue;
    }
    const versions = byType.get(row.id) ?? { base: 0, schemas: new Map<string, Record<string, unknown>>() };
    versions.schemas.set(String(row.version - versions.base), row.schema);
    byType.set(row.id, versions);
  }
  return byType;
}

/** Svix's `schemas`: null without a schema; else the versions, and the current schema under its number even if its row is missing (one an older release wrote during an upgrade). */
function schemasOut(type: EventType, versions: Versions | undefined): Record<string, unknown> | null {
  if (!type.schema) return null;
  const base = versions?.base ?? 0;
  return { ...Object.fromEntries(versions?.schemas ?? []), [String(Math.max(type.schema_version - base, 1))]: type.schema };
}

async function withVersions(ctx: Ctx, type: EventType): Promise<EventTypeOut> {
  return toEventTypeOut(type, (await versionsOf(ctx, [type.id])).get(type.id));
}

export function toEventTypeOut(type: EventType, versions: Versions | undefined, withContent = true): EventTypeOut {
  return {
    name: type.name,
    description: type.description,
    schemas: withContent ? schemasOut(type, versions) : null,
    archived: type.archived,
    deprecated: type.deprecated,
    groupName: type.group_name,
    featureFlags: null,
    createdAt: type.created_at,
    updatedAt: type.updated_at,
  };
}

/**
 * The schemas a Svix `schemas` record asks us to save, in order, over the current version (as Svix
 * numbers it): each version above it, lowest first (so a record read, given a version more and sent back, makes
 * that one our next); when none is above, the highest one, if it is not the current schema (a
 * schema equal to the current one is no change). null or `{}`: no schema.
 */
function schemaSteps(schemas: Record<string, Record<string, unknown>> | null | undefined, current: number): (Record<string, unknown> | null)[] {
  if (schemas === undefined) return [];
  const versions = Object.keys(schemas ?? {}).map((key) => {
    if (!/^[1-9][0-9]{0,8}$/.test(key)) throw new SvixValidationError([{ loc: ["body", "schemas", key], msg: "must be a version number: 1, 2, …", type: "value_error" }]);
    return Number(key);
  });
  if (!schemas || versions.length === 0) return [null];
  versions.sort((a, b) => a - b);
  const above = versions.filter((v) => v > current);
  return (above.length ? above : [versions[versions.length - 1]!]).map((v) => schemas[String(v)]!);
}

/** Our fields from Svix's, but the schema (schemaSteps). */
function ours(input: Omit<Partial<EventTypeIn>, "description"> & { description?: string | null }) {
  return {
    ...(input.description !== undefined ? { description: input.description ?? "" } : {}),
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
  const versions = query.with_content ? await versionsOf(ctx, rows.slice(0, query.limit).map((row) => row.id)) : new Map<string, Versions>();
  return page.page(rows, (row) => row.name, (row) => toEventTypeOut(toEventType(row), versions.get(row.id), query.with_content ?? false));
}

export async function createSvixEventType(ctx: Ctx, input: EventTypeIn): Promise<EventTypeOut> {
  const type = await inTransaction(ctx, async (tx) => {
    const [first, ...rest] = schemaSteps(input.schemas, 0);
    const made = await createEventType({ ctx: tx, input: { name: input.name, ...ours(input), schema: first ?? null } });
    return saveSchemas(tx, made, rest);
  });
  return withVersions(ctx, type);
}

/** Each schema in turn, a version each. */
async function saveSchemas(ctx: Ctx, type: EventType, schemas: (Record<string, unknown> | null)[]): Promise<EventType> {
  let saved = type;
  for (const schema of schemas) saved = await updateEventType({ ctx, name: type.name, input: { schema } });
  return saved;
}

/** A change from Svix's fields: the others, then `schemas`' versions in turn (schemaSteps), in one transaction. */
async function changeSvixEventType(ctx: Ctx, name: string, input: Omit<Partial<EventTypeIn>, "description"> & { description?: string | null }): Promise<EventType> {
  return inTransaction(ctx, async (tx) => {
    const changed = await updateEventType({ ctx: tx, name, input: ours(input) });
    if (input.schemas === undefined) return changed;
    const base = (await versionsOf(tx, [changed.id])).get(changed.id)?.base ?? 0;
    return saveSchemas(tx, changed, schemaSteps(input.schemas, changed.schema_version - base));
  });
}

export async function getSvixEventType(ctx: Ctx, name: string): Promise<EventTypeOut> {
  return withVersions(ctx, await findEventType(ctx, name));
}

/** PUT: replaced whole (200), or made (201). */
export async function upsertSvixEventType(ctx: Ctx, name: string, input: z.infer<typeof EventTypeUpdate>): Promise<{ created: boolean; type: EventTypeOut }> {
  const whole = { archived: false, deprecated: false, groupName: null, schemas: null, ...input };
  try {
    return { created: false, type: await withVersions(ctx, await changeSvixEventType(ctx, name, whole)) };
  } catch (error) {
    if (!(error instanceof NotFoundError) || !EventTypeName.safeParse(name).success) throw error;
    return { created: true, type: await createSvixEventType(ctx, { name, ...whole }) };
  }
}

export async function patchSvixEventType(ctx: Ctx, name: string, patch: EventTypePatch): Promise<EventTypeOut> {
  return withVersions(ctx, await changeSvixEventType(ctx, name, patch));
}

export async function removeSvixEventType(ctx: Ctx, name: string, expunge: boolean): Promise<void> {
  if (expunge) await deleteEventType({ ctx, name });
  else await updateEventType({ ctx, name, input: { archived: true } });
}

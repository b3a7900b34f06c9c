import { and, desc, eq, lt } from "drizzle-orm";
import type { Ctx } from "../context";
import { eventTypes, eventTypeSchemas } from "../db/schema";
import { NotFoundError, ValidationError } from "../errors";
import { schemaTypeScript } from "../event-schemas";
import { selectPage } from "../db/keyset";
import { toPage, type Page, type PageQuery } from "../pagination";
import { toEventType, toSchemaVersion, type EventTypeSchemaVersion } from "./schemas";

export async function listEventTypes(ctx: Ctx, query: PageQuery) {
  const rows = await selectPage(ctx.db, eventTypes, query);
  return toPage(rows, query.limit, toEventType);
}

/** The event type of that name. */
export async function findEventType(ctx: Ctx, name: string) {
  const [row] = await ctx.db.select().from(eventTypes).where(eq(eventTypes.name, name)).limit(1);
  if (!row) throw new NotFoundError("event type", name);
  return toEventType(row);
}

/** A page of an event type's kept schema versions, newest first; the cursor is the last version's number. */
export async function listSchemaVersions(ctx: Ctx, name: string, query: PageQuery): Promise<Page<EventTypeSchemaVersion>> {
  const type = await findEventType(ctx, name);
  const before = decodeVersionCursor(query.cursor);
  const rows = await ctx.db
    .select()
    .from(eventTypeSchemas)
    .where(and(eq(eventTypeSchemas.eventTypeId, type.id), before === null ? undefined : lt(eventTypeSchemas.version, before)))
    .orderBy(desc(eventTypeSchemas.version))
    .limit(query.limit + 1);
  const data = rows.slice(0, query.limit);
  return { data: data.map((row) => toSchemaVersion(type.name, row)), next_cursor: rows.length > query.limit ? Buffer.from(`v${data[data.length - 1]!.version}`).toString("base64url") : null };
}

function decodeVersionCursor(cursor: string | undefined): number | null {
  if (cursor === undefined) return null;
  const match = /^v(\d{1,9})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  if (!match) throw new ValidationError("The cursor is not one this API returned.", [{ path: "cursor", message: "invalid cursor" }], 400);
  return Number(match[1]);
}

/** One kept version of the event type's schema. */
export async function findSchemaVersion(ctx: Ctx, name: string, version: number): Promise<EventTypeSchemaVersion> {
  const type = await findEventType(ctx, name);
  const [row] = await ctx.db
    .select()
    .from(eventTypeSchemas)
    .where(and(eq(eventTypeSchemas.eventTypeId, type.id), eq(eventTypeSchemas.version, version)))
    .limit(1);
  if (!row) throw new NotFoundError("schema version", `${name} v${version}`);
  return toSchemaVersion(type.name, row);
}

// Made once per (event type, version) per process, and a few kept: the portal's catalog asks again.
const typeScriptCache = new Map<string, string>();
const TYPESCRIPT_KEPT = 100;

/** A kept version's schema as TypeScript declarations (lib/event-schemas); 404 for a version without a schema. */
export async function schemaVersionTypeScript(ctx: Ctx, name: string, version: number): Promise<{ source: string; fileName: string }> {
  const type = await findEventType(ctx, name);
  const key = `${type.id}:${version}`;
  const fileName = `${type.name}.v${version}.d.ts`;
  const kept = typeScriptCache.get(key);
  if (kept !== undefined) return { source: kept, fileName };
  const { schema } = await findSchemaVersion(ctx, name, version);
  if (!schema) throw new NotFoundError("schema", `${name} v${version} (the version that removed it)`);
  const source = await schemaTypeScript(schema, type.name, version);
  if (typeScriptCache.size >= TYPESCRIPT_KEPT) typeScriptCache.delete(typeScriptCache.keys().next().value!);
  typeScriptCache.set(key, source);
  return { source, fileName };
}

/** A version as a path names it: 1, 2, …; anything else names no version (404). */
export function schemaVersionOf(text: string): number {
  if (!/^[1-9][0-9]{0,8}$/.test(text)) throw new NotFoundError("schema version", text);
  return Number(text);
}

import { eq } from "drizzle-orm";
import type { Ctx } from "../context";
import { eventTypes } from "../db/schema";
import { NotFoundError } from "../errors";
import { keysetBefore, newestFirst } from "../db/keyset";
import { decodeCursor, toPage, type PageQuery } from "../pagination";
import { toEventType } from "./schemas";

export async function listEventTypes(ctx: Ctx, query: PageQuery) {
  const cursor = decodeCursor(query.cursor);
  const rows = await ctx.db
    .select()
    .from(eventTypes)
    .where(cursor ? keysetBefore(eventTypes.createdAt, eventTypes.id, cursor) : undefined)
    .orderBy(...newestFirst(eventTypes.createdAt, eventTypes.id))
    .limit(query.limit + 1);
  return toPage(rows, query.limit, toEventType);
}

/** The event type of that name. */
export async function findEventType(ctx: Ctx, name: string) {
  const [row] = await ctx.db.select().from(eventTypes).where(eq(eventTypes.name, name)).limit(1);
  if (!row) throw new NotFoundError("event type", name);
  return toEventType(row);
}

import type { Ctx } from "../context";
import { eventTypes } from "../db/schema";
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

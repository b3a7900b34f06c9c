import { desc } from "drizzle-orm";
import type { Ctx } from "../context";
import { eventTypes } from "../db/schema";
import { keysetBefore } from "../db/keyset";
import { decodeCursor, toPage, type PageQuery } from "../pagination";
import { toEventType } from "./schemas";

export async function listEventTypes(ctx: Ctx, query: PageQuery) {
  const cursor = decodeCursor(query.cursor);
  const rows = await ctx.db
    .select()
    .from(eventTypes)
    .where(cursor ? keysetBefore(eventTypes.createdAt, eventTypes.id, cursor) : undefined)
    .orderBy(desc(eventTypes.createdAt), desc(eventTypes.id))
    .limit(query.limit + 1);
  return toPage(rows, query.limit, toEventType);
}

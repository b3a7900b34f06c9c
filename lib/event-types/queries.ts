import { eq } from "drizzle-orm";
import type { Ctx } from "../context";
import { eventTypes } from "../db/schema";
import { NotFoundError } from "../errors";
import { selectPage } from "../db/keyset";
import { toPage, type PageQuery } from "../pagination";
import { toEventType } from "./schemas";

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

import { eq } from "drizzle-orm";
import type { Ctx } from "../context";
import type { Executor } from "../db/client";
import { operators } from "../db/schema";
import { keysetBefore, newestFirst } from "../db/keyset";
import { decodeCursor, toPage, type PageQuery } from "../pagination";
import { toOperator } from "./schemas";

export async function listOperators(ctx: Ctx, query: PageQuery) {
  const cursor = decodeCursor(query.cursor);
  const rows = await ctx.db
    .select()
    .from(operators)
    .where(cursor ? keysetBefore(operators.createdAt, operators.id, cursor) : undefined)
    .orderBy(...newestFirst(operators.createdAt, operators.id))
    .limit(query.limit + 1);
  return toPage(rows, query.limit, toOperator);
}

/** The operator a session names, read fresh on every request: a removed operator or a changed role takes effect at once. */
export async function findOperator(db: Executor, id: string) {
  const [row] = await db.select().from(operators).where(eq(operators.id, id)).limit(1);
  return row ? toOperator(row) : null;
}

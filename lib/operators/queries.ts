import { eq, inArray } from "drizzle-orm";
import type { Ctx } from "../context";
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
export async function findOperator(ctx: Ctx, id: string) {
  const { db } = ctx;
  const [row] = await db.select().from(operators).where(eq(operators.id, id)).limit(1);
  return row ? toOperator(row) : null;
}

/** The emails of the operators among `ids` that still exist, by id (for the names other lists show). */
export async function operatorEmails(ctx: Ctx, ids: Iterable<string | null | undefined>): Promise<Map<string, string>> {
  const { db } = ctx;
  const wanted = [...new Set([...ids].filter((id): id is string => !!id))];
  if (wanted.length === 0) return new Map();
  const rows = await db.select({ id: operators.id, email: operators.email }).from(operators).where(inArray(operators.id, wanted));
  return new Map(rows.map((row) => [row.id, row.email]));
}

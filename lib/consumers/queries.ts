import { and, eq, ilike, or, sql, type SQL } from "drizzle-orm";
import { consumerScope, type Ctx } from "../context";
import { consumers } from "../db/schema";
import { NotFoundError } from "../errors";
import { decodeCursor, toPage, type PageQuery } from "../pagination";
import { keysetBefore, newestFirst } from "../db/keyset";
import { consumerView } from "./schemas";

/** A consumer by `id` or by the SaaS's own `uid`, within the actor's scope. */
export async function findConsumer(ctx: Ctx, ref: string) {
  const scope = consumerScope(ctx);
  const [row] = await ctx.db
    .select()
    .from(consumers)
    .where(and(or(eq(consumers.id, ref), eq(consumers.uid, ref)), scope ? eq(consumers.id, scope) : undefined))
    .orderBy(sql`${consumers.id} = ${ref} desc`)
    .limit(1);
  if (!row) throw new NotFoundError("consumer", ref);
  return row;
}

export async function listConsumers(ctx: Ctx, query: PageQuery & { q?: string }) {
  const cursor = decodeCursor(query.cursor);
  const scope = consumerScope(ctx);
  const filters: (SQL | undefined)[] = [
    cursor ? keysetBefore(consumers.createdAt, consumers.id, cursor) : undefined,
    scope ? eq(consumers.id, scope) : undefined,
  ];
  if (query.q) {
    const pattern = `%${query.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    filters.push(or(ilike(consumers.name, pattern), ilike(consumers.uid, pattern)));
  }
  const rows = await ctx.db
    .select()
    .from(consumers)
    .where(and(...filters))
    .orderBy(...newestFirst(consumers.createdAt, consumers.id))
    .limit(query.limit + 1);
  return toPage(rows, query.limit, (row) => consumerView(ctx, row));
}

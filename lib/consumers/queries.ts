import { and, eq, ilike, inArray, isNotNull, isNull, notInArray, or, sql, type AnyColumn, type SQL } from "drizzle-orm";
import { consumerScope, type Ctx } from "../context";
import { consumers } from "../db/schema";
import { NotFoundError } from "../errors";
import { toPage, type PageQuery } from "../pagination";
import { rowsById } from "../db/by-id";
import { selectPage } from "../db/keyset";
import { consumerView, type ConsumerRef } from "./schemas";

/**
 * A consumer by `id`, by the SaaS's own `uid` or by the Svix id it was imported with (`app_…`), within the actor's scope.
 * One being erased (`deleted_at`, lib/retention) is not found: it is gone from every read from its deletion on.
 */
export async function findConsumer(ctx: Ctx, ref: string) {
  const scope = consumerScope(ctx);
  const [row] = await ctx.db
    .select()
    .from(consumers)
    .where(and(or(eq(consumers.id, ref), eq(consumers.uid, ref), eq(consumers.svixId, ref)), isNull(consumers.deletedAt), scope ? eq(consumers.id, scope) : undefined))
    .orderBy(sql`${consumers.id} = ${ref} desc`, sql`${consumers.uid} = ${ref} desc`)
    .limit(1);
  if (!row) throw new NotFoundError("consumer", ref);
  return row;
}

export async function listConsumers(ctx: Ctx, query: PageQuery & { q?: string }) {
  const scope = consumerScope(ctx);
  const pattern = query.q ? containsPattern(query.q) : undefined;
  const rows = await selectPage(ctx.db, consumers, query, [
    scope ? eq(consumers.id, scope) : undefined,
    isNull(consumers.deletedAt),
    pattern ? or(ilike(consumers.name, pattern), ilike(consumers.uid, pattern)) : undefined,
  ]);
  return toPage(rows, query.limit, (row) => consumerView(ctx, row));
}

/**
 * The consumers among `ids` that exist, by id: one lookup by primary key for the distinct ids of a
 * page another list already read (and scoped), so a list names its consumers without a join that
 * could change its plan. A deleted consumer is simply absent.
 */
export function consumerRefs(ctx: Ctx, ids: Iterable<string | null | undefined>): Promise<Map<string, ConsumerRef>> {
  return rowsById(ids, (wanted) =>
    ctx.db.select({ id: consumers.id, uid: consumers.uid, name: consumers.name }).from(consumers).where(and(inArray(consumers.id, wanted), isNull(consumers.deletedAt))),
  );
}

/**
 * The consumers being erased (lib/retention), whose rows a list across consumers leaves out until
 * the erasure reaches them: none, nearly always (then a list adds no condition and keeps its plan).
 */
export async function erasingConsumerIds(ctx: Ctx): Promise<string[]> {
  const rows = await ctx.db.select({ id: consumers.id }).from(consumers).where(isNotNull(consumers.deletedAt));
  return rows.map((c) => c.id);
}

/**
 * What a list across consumers adds to leave out the rows of consumers being erased, at once (the
 * erasure removes them batch by batch): nothing when none is, nearly always, so the list keeps its
 * plan. `nullable`: a row without a consumer (an alert of a channel) stays.
 */
export async function notErasing(ctx: Ctx, column: AnyColumn, { nullable = false }: { nullable?: boolean } = {}): Promise<SQL | undefined> {
  const erasing = await erasingConsumerIds(ctx);
  if (erasing.length === 0) return undefined;
  return nullable ? or(isNull(column), notInArray(column, erasing)) : notInArray(column, erasing);
}

/** `%q%` for ILIKE, with the pattern characters the reader typed taken literally. */
export function containsPattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

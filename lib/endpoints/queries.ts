import { and, eq } from "drizzle-orm";
import { getConfig } from "../config";
import { maySeeSecrets, consumerScope, type Ctx } from "../context";
import type { Executor } from "../db/client";
import { endpoints } from "../db/schema";
import { keysetBefore, newestFirst } from "../db/keyset";
import { NotFoundError } from "../errors";
import { decodeCursor, toPage, type PageQuery } from "../pagination";
import { findConsumer } from "../consumers/queries";
import { toEndpoint } from "./schemas";

/** An endpoint row within the actor's scope; another consumer's endpoint is simply not found. */
export async function findEndpointRow(ctx: Ctx, id: string, db: Executor = ctx.db) {
  const scope = consumerScope(ctx);
  const [row] = await db
    .select()
    .from(endpoints)
    .where(and(eq(endpoints.id, id), scope ? eq(endpoints.consumerId, scope) : undefined))
    .limit(1);
  if (!row) throw new NotFoundError("endpoint", id);
  return row;
}

export async function getEndpoint(ctx: Ctx, id: string) {
  return toEndpoint(await findEndpointRow(ctx, id), getConfig().ENDPOINT_MAX_CONCURRENCY, maySeeSecrets(ctx));
}

export async function listEndpoints(ctx: Ctx, consumerRef: string, query: PageQuery) {
  const consumer = await findConsumer(ctx, consumerRef);
  const cursor = decodeCursor(query.cursor);
  const rows = await ctx.db
    .select()
    .from(endpoints)
    .where(and(eq(endpoints.consumerId, consumer.id), cursor ? keysetBefore(endpoints.createdAt, endpoints.id, cursor) : undefined))
    .orderBy(...newestFirst(endpoints.createdAt, endpoints.id))
    .limit(query.limit + 1);
  const concurrency = getConfig().ENDPOINT_MAX_CONCURRENCY;
  const reveal = maySeeSecrets(ctx);
  return toPage(rows, query.limit, (row) => toEndpoint(row, concurrency, reveal));
}

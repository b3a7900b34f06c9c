import { and, eq, ilike, inArray, or, sql } from "drizzle-orm";
import { maySeeSecrets, consumerScope, type Ctx } from "../context";
import { consumers, endpoints } from "../db/schema";
import { rowsById } from "../db/by-id";
import { selectPage } from "../db/keyset";
import { NotFoundError } from "../errors";
import { toPage, type PageQuery } from "../pagination";
import { consumerRefs, containsPattern, findConsumer, notErasing } from "../consumers/queries";
import { toEndpoint, type EndpointRef, type SearchEndpointsQuery } from "./schemas";

/**
 * An endpoint row within the actor's scope; another consumer's endpoint is simply not found. `ref`
 * is its id or the id it was imported with from Svix; within a consumer (`consumerId`), its uid too.
 */
export async function findEndpointRow(ctx: Ctx, ref: string, { consumerId }: { consumerId?: string } = {}) {
  const scope = consumerScope(ctx);
  const named = or(
    eq(endpoints.id, ref),
    eq(endpoints.svixId, ref),
    consumerId ? and(eq(endpoints.consumerId, consumerId), eq(endpoints.uid, ref)) : undefined,
  );
  const [row] = await ctx.db
    .select()
    .from(endpoints)
    .where(and(named, scope ? eq(endpoints.consumerId, scope) : undefined, consumerId ? eq(endpoints.consumerId, consumerId) : undefined))
    .orderBy(sql`${endpoints.id} = ${ref} desc`)
    .limit(1);
  if (!row) throw new NotFoundError("endpoint", ref);
  return row;
}

export async function getEndpoint(ctx: Ctx, id: string) {
  return toEndpoint(await findEndpointRow(ctx, id), ctx.config.ENDPOINT_MAX_CONCURRENCY, maySeeSecrets(ctx));
}

export async function listEndpoints(ctx: Ctx, consumerRef: string, query: PageQuery) {
  const consumer = await findConsumer(ctx, consumerRef);
  const rows = await selectPage(ctx.db, endpoints, query, [eq(endpoints.consumerId, consumer.id)]);
  const concurrency = ctx.config.ENDPOINT_MAX_CONCURRENCY;
  const reveal = maySeeSecrets(ctx);
  return toPage(rows, query.limit, (row) => toEndpoint(row, concurrency, reveal));
}

/**
 * GET /endpoints: every consumer's endpoints, newest first (a portal session's own alone), for a
 * picker that finds one by its URL, its description, or its consumer's name or uid; each names its
 * consumer. Endpoints are few beside messages, so the search is a scan of the table.
 */
export async function searchEndpoints(ctx: Ctx, query: PageQuery & SearchEndpointsQuery) {
  const scope = consumerScope(ctx);
  const consumerId = query.consumer ? (await findConsumer(ctx, query.consumer)).id : scope;
  const rows = await selectPage(ctx.db, endpoints, query, [
    // A consumer being erased is gone from the list at once, as it is from every read.
    consumerId ? eq(endpoints.consumerId, consumerId) : await notErasing(ctx, endpoints.consumerId),
    query.q ? endpointsMatching(ctx, containsPattern(query.q)) : undefined,
  ]);
  const owners = await consumerRefs(ctx, rows.slice(0, query.limit).map((row) => row.consumerId));
  const concurrency = ctx.config.ENDPOINT_MAX_CONCURRENCY;
  const reveal = maySeeSecrets(ctx);
  return toPage(rows, query.limit, (row) => ({ ...toEndpoint(row, concurrency, reveal), consumer: owners.get(row.consumerId) ?? null }));
}

/** Endpoints whose URL or description, or whose consumer's name or uid, match the ILIKE pattern. */
function endpointsMatching(ctx: Ctx, pattern: string) {
  const named = ctx.db.select({ id: consumers.id }).from(consumers).where(or(ilike(consumers.name, pattern), ilike(consumers.uid, pattern)));
  return or(ilike(endpoints.url, pattern), ilike(endpoints.description, pattern), inArray(endpoints.consumerId, named));
}

/**
 * The endpoints among `ids` that exist, by id: one lookup by primary key for the distinct ids of a
 * page another list already read (and scoped). A deleted endpoint is simply absent.
 */
export function endpointRefs(ctx: Ctx, ids: Iterable<string | null | undefined>): Promise<Map<string, EndpointRef>> {
  return rowsById(ids, (wanted) => ctx.db.select({ id: endpoints.id, url: endpoints.url, description: endpoints.description }).from(endpoints).where(inArray(endpoints.id, wanted)));
}

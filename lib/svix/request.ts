import { and, asc, desc, eq, gt, lt, sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { z } from "zod";
import type { Ctx } from "../context";
import { queryParams, readOptionalJson } from "../http/request";
import { SvixValidationError } from "./errors";

/**
 * Reading the Svix SDKs' requests: bodies (camelCase, unknown fields ignored as Svix does), query
 * strings (snake_case, arrays comma-joined, booleans `true`/`false`, times with or without an
 * offset), and its lists' pagination (`limit`, `iterator`, `order` → `{data, iterator,
 * prevIterator, done}`).
 */
const BODY_LIMIT = 64 * 1024;

function validate<S extends z.ZodType>(schema: S, value: unknown, where: "body" | "query"): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new SvixValidationError(
    result.error.issues.map((issue) => ({ loc: [where, ...issue.path.map((p) => (typeof p === "number" ? p : String(p)))], msg: issue.message, type: "value_error" })),
  );
}

/** A JSON body; an empty one (the SDKs send none on resend and logout) reads as `{}`. */
export async function parseSvixBody<S extends z.ZodType>(req: Request, schema: S, maxBytes = BODY_LIMIT): Promise<z.infer<S>> {
  return validate(schema, await readOptionalJson(req, maxBytes), "body");
}

export function parseSvixQuery<S extends z.ZodType>(req: Request, schema: S): z.infer<S> {
  return validate(schema, queryParams(req), "query");
}

/** `true` / `false` in a query string. */
export const QueryBool = z.enum(["true", "false"]).transform((v) => v === "true");

/** A query array: comma-joined (what the SDKs send) or the parameter repeated. */
export const QueryList = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? v : [v]).flatMap((s) => s.split(",")).map((s) => s.trim()).filter(Boolean));

/** An RFC 3339 time; one without an offset (Python's naive datetimes) is UTC. */
export const SvixTime = z
  .string()
  .transform((v, ctx) => {
    const text = /(Z|[+-]\d\d:?\d\d)$/i.test(v) ? v : `${v}Z`;
    const date = new Date(text);
    if (!/^\d{4}-\d\d-\d\d[T ]\d\d:\d\d/.test(v) || Number.isNaN(date.getTime())) {
      ctx.addIssue({ code: "custom", message: "must be an RFC 3339 date-time" });
      return z.NEVER;
    }
    return date;
  });

export const MAX_LIMIT = 250;

/** `limit` (default 50, anything above 250 silently 250, as the OSS server does), `iterator`, `order`. */
export const ListQuery = z.object({
  limit: z.coerce.number().int().min(1).default(50).transform((n) => Math.min(n, MAX_LIMIT)),
  iterator: z.string().min(1).max(300).optional(),
  order: z.enum(["ascending", "descending"]).optional(),
});
export type ListQuery = z.infer<typeof ListQuery>;

export type ListResponse<T> = { data: T[]; iterator: string | null; prevIterator: string | null; done: boolean };

/** Which way a page goes, from `order` (or the list's default) and an iterator's leading `-`. */
function direction(query: ListQuery, defaultOrder: "ascending" | "descending") {
  const ascending = (query.order ?? defaultOrder) === "ascending";
  const backwards = query.iterator?.startsWith("-") ?? false;
  const pivot = backwards ? query.iterator!.slice(1) : query.iterator;
  // Backwards, the rows nearest the pivot come first, and the page is turned round afterwards.
  return { up: ascending !== backwards, backwards, pivot };
}

function pager(query: ListQuery, backwards: boolean) {
  return <R, T>(rows: R[], key: (row: R) => string, render: (row: R) => T): ListResponse<T> => {
    const kept = rows.slice(0, query.limit);
    if (backwards) kept.reverse();
    const first = kept[0];
    const last = kept[kept.length - 1];
    return {
      data: kept.map(render),
      iterator: last ? key(last) : null,
      prevIterator: first ? `-${key(first)}` : null,
      done: rows.length <= query.limit,
    };
  };
}

/**
 * Keyset paging on one unique, ordered column (an id, which sorts by creation time, or a name):
 * `iterator` is the key of the last item returned and pages on; `-` before a key pages back from
 * it (`prevIterator`). Fetch `limit + 1` rows with `where` and `orderBy`, then `page` them.
 */
export function keyset(column: AnyColumn, query: ListQuery, defaultOrder: "ascending" | "descending") {
  const { up, backwards, pivot } = direction(query, defaultOrder);
  return {
    where: pivot ? (up ? gt(column, pivot) : lt(column, pivot)) : undefined,
    orderBy: [up ? asc(column) : desc(column)],
    limit: query.limit + 1,
    page: pager(query, backwards),
  };
}

/**
 * The list's query with its iterator kept only when it names a row of the list — `scope` being the
 * list's own condition (the caller's application, its endpoint…) — and that row's creation time
 * (for timeKeyset). An iterator naming anything else (another application's object, or none) is
 * ignored and the page starts at the beginning, as for a missing one: it never moves the page,
 * so paging tells nothing of objects the caller cannot list.
 */
export async function scopedIterator<Q extends ListQuery>(
  ctx: Ctx,
  table: PgTable,
  columns: { id: PgColumn; createdAt: PgColumn },
  scope: SQL | undefined,
  query: Q,
): Promise<{ query: Q; pivotAt: Date | null }> {
  const id = direction(query, "descending").pivot;
  if (!id) return { query, pivotAt: null };
  const [row] = await ctx.db.select({ at: columns.createdAt }).from(table).where(and(eq(columns.id, id), scope)).limit(1);
  return row ? { query, pivotAt: row.at as Date } : { query: { ...query, iterator: undefined }, pivotAt: null };
}

/**
 * Keyset paging in (created_at, id) order, as the message and attempt indexes are built: the
 * iterator is still the last item's id, whose `created_at` the caller looked up (`pivotAt`; null
 * for an id that names no row of the list: the page starts at the beginning).
 */
export function timeKeyset(createdAt: AnyColumn, id: AnyColumn, query: ListQuery, pivotAt: Date | null, defaultOrder: "ascending" | "descending" = "descending") {
  const { up, backwards, pivot } = direction(query, defaultOrder);
  const at = pivotAt && pivot ? sql`(${pivotAt.toISOString()}::timestamptz, ${pivot}::text)` : null;
  return {
    where: at ? (up ? sql`(${createdAt}, ${id}) > ${at}` : sql`(${createdAt}, ${id}) < ${at}`) : undefined,
    orderBy: up ? [sql`${createdAt} asc`, sql`${id} asc`] : [sql`${createdAt} desc nulls last`, sql`${id} desc nulls last`],
    limit: query.limit + 1,
    page: pager(query, backwards),
  };
}

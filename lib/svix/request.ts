import { asc, desc, gt, lt, type AnyColumn, type SQL } from "drizzle-orm";
import { z } from "zod";
import { readText } from "../http/request";
import { InvalidJsonError } from "../errors";
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
  const text = await readText(req, maxBytes);
  let json: unknown = {};
  if (text.trim() !== "") {
    try {
      json = JSON.parse(text);
    } catch {
      throw new InvalidJsonError();
    }
  }
  return validate(schema, json, "body");
}

export function parseSvixQuery<S extends z.ZodType>(req: Request, schema: S): z.infer<S> {
  const params = new URL(req.url).searchParams;
  const raw: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    raw[key] = values.length > 1 ? values : values[0]!;
  }
  return validate(schema, raw, "query");
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

/**
 * Keyset paging on one unique, ordered column (an id, which sorts by creation time, or a name):
 * `iterator` is the key of the last item returned and pages on; `-` before a key pages back from
 * it (`prevIterator`). Fetch `limit + 1` rows with `where` and `orderBy`, then `page` them.
 */
export function keyset(column: AnyColumn, query: ListQuery, defaultOrder: "ascending" | "descending") {
  const ascending = (query.order ?? defaultOrder) === "ascending";
  const backwards = query.iterator?.startsWith("-") ?? false;
  const pivot = backwards ? query.iterator!.slice(1) : query.iterator;
  // Backwards, the rows nearest the pivot come first, and the page is turned round afterwards.
  const up = ascending !== backwards;
  const where: SQL | undefined = pivot ? (up ? gt(column, pivot) : lt(column, pivot)) : undefined;
  return {
    where,
    orderBy: up ? asc(column) : desc(column),
    limit: query.limit + 1,
    page<R, T>(rows: R[], key: (row: R) => string, render: (row: R) => T): ListResponse<T> {
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
    },
  };
}

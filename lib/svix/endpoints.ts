import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { maySeeSecrets, type Ctx } from "../context";
import { findConsumer } from "../consumers";
import { deliveries, deliveryQueue, endpoints, QUEUE_KINDS } from "../db/schema";
import {
  CreateEndpointInput,
  UpdateEndpointInput,
  createEndpoint,
  deleteEndpoint,
  findEndpointRow,
  getEndpointSecret,
  rotateEndpointSecret,
  toEndpoint,
  updateEndpoint,
  type Endpoint,
} from "../endpoints";
import { checkSecret } from "../endpoints/secrets";
import { AppError, NotFoundError } from "../errors";
import { createRecovery } from "../recoveries";
import { readEndpointTotals } from "../stats/queries";
import { findRecoveryRow } from "../recoveries/queries";
import { toBackgroundTask } from "./background-tasks";
import { NotImplementedError, SvixValidationError } from "./errors";
import { keyset, ListQuery, scopedIterator, SvixTime } from "./request";

/**
 * Svix endpoints over ours, within the application in the path: the path takes the endpoint's id,
 * its uid or the Svix id it was imported with. Endpoints made here sign with the `svix-*` headers
 * too (`svix_headers`), as Svix does, so receivers that read those names verify unchanged.
 */
type EndpointRow = typeof endpoints.$inferSelect;

const Rate = z.number().int().min(1).max(65_535);
const names = z.array(z.string()).nullish();

const fields = {
  url: z.string(),
  description: z.string().nullish(),
  uid: z.string().nullish(),
  /** 1.x's name; 2.x sends eventTypes. Either; `[]` is every event type (svix-react sends it). */
  filterTypes: names,
  eventTypes: names,
  channels: names,
  disabled: z.boolean().nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
  throttleRate: Rate.nullish(),
  rateLimit: Rate.nullish(),
  version: z.number().int().nullish(),
};

export const EndpointIn = z.object({ ...fields, headers: z.record(z.string(), z.string()).nullish(), secret: z.string().nullish() });
export type EndpointIn = z.infer<typeof EndpointIn>;
export const EndpointUpdate = z.object(fields);
export type EndpointUpdate = z.infer<typeof EndpointUpdate>;
export const EndpointPatch = z.object({ ...fields, url: z.string().nullish() });
export type EndpointPatch = z.infer<typeof EndpointPatch>;

export const EndpointOut = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  uid: z.string().nullable(),
  metadata: z.record(z.string(), z.string()),
  disabled: z.boolean(),
  filterTypes: z.array(z.string()).nullable(),
  eventTypes: z.array(z.string()).nullable(),
  channels: z.array(z.string()).nullable(),
  throttleRate: z.number().nullable(),
  rateLimit: z.number().nullable(),
  version: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type EndpointOut = z.infer<typeof EndpointOut>;

export function toEndpointOut(endpoint: Endpoint): EndpointOut {
  return {
    id: endpoint.id,
    url: endpoint.url,
    description: endpoint.description,
    uid: endpoint.uid,
    metadata: endpoint.metadata,
    disabled: endpoint.state !== "active",
    // The OSS server answers both names.
    filterTypes: endpoint.event_types,
    eventTypes: endpoint.event_types,
    channels: endpoint.channels,
    throttleRate: endpoint.rate_limit_per_second,
    rateLimit: endpoint.rate_limit_per_second,
    version: 1,
    createdAt: endpoint.created_at,
    updatedAt: endpoint.updated_at,
  };
}

export const rowOut = (ctx: Ctx, row: EndpointRow) => toEndpointOut(toEndpoint(row, ctx.config.ENDPOINT_MAX_CONCURRENCY, maySeeSecrets(ctx)));

/** Our field names as Svix names them, for a 422's `loc`. */
const SVIX_NAMES: Record<string, string> = { event_types: "filterTypes", rate_limit_per_second: "throttleRate" };

/** Our input, checked by our own schema (limits, deny-lists), its errors named as Svix names the fields. */
function ours<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new SvixValidationError(
    result.error.issues.map((issue) => {
      const [field, ...rest] = issue.path.map((p) => (typeof p === "number" ? p : String(p)));
      const name = typeof field === "string" ? (SVIX_NAMES[field] ?? field.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())) : field;
      return { loc: ["body", ...(name === undefined ? [] : [name]), ...rest], msg: issue.message, type: "value_error" };
    }),
  );
}

const list = (value: string[] | null | undefined) => (value?.length ? value : null);

/** The endpoint as it is to be whole (PUT, or a new one): what is left out takes its default. */
function whole(input: EndpointUpdate, defaultRate: number | null) {
  return {
    url: input.url,
    uid: input.uid ?? null,
    description: input.description ?? "",
    metadata: input.metadata ?? {},
    event_types: list(input.eventTypes ?? input.filterTypes),
    channels: list(input.channels),
    rate_limit_per_second: input.throttleRate ?? input.rateLimit ?? defaultRate,
    disabled: input.disabled ?? false,
  };
}

export async function appOf(ctx: Ctx, appRef: string) {
  return findConsumer(ctx, appRef);
}

/** The endpoint named in the path, within the application named in the path (404 for another's; 501 for a kind Svix has no shape for). */
export async function endpointIn(ctx: Ctx, appRef: string, ref: string): Promise<EndpointRow> {
  const app = await appOf(ctx, appRef);
  return httpOnly(await findEndpointRow(ctx, ref, { consumerId: app.id }));
}

/**
 * Svix's endpoint is a URL: an endpoint of another kind (a queue, a polling endpoint) has no shape
 * in its API, so its routes answer 501 saying so, and lists leave it out, rather than show it as a
 * URL it is not. A polling endpoint is read through /app/{app_id}/poller/… (./poller.ts).
 */
function httpOnly(endpoint: EndpointRow): EndpointRow {
  if (endpoint.destination === "http") return endpoint;
  const where = endpoint.destination === "polling" ? " read it through /app/{app_id}/poller/{sink_id}, or" : "";
  throw new NotImplementedError({
    what: `Endpoint ${endpoint.id}, of kind ${endpoint.destination},`,
    why: `Svix's endpoints are URLs, and this one delivers elsewhere;${where} manage it with the REST API's /api/v1/endpoints/${endpoint.id}.`,
  });
}

export async function listSvixEndpoints(ctx: Ctx, appRef: string, query: ListQuery) {
  const app = await appOf(ctx, appRef);
  const scope = and(eq(endpoints.consumerId, app.id), eq(endpoints.destination, "http"));
  const page = keyset(endpoints.id, (await scopedIterator(ctx, endpoints, endpoints, scope, query)).query, "descending");
  const rows = await ctx.db.select().from(endpoints).where(and(scope, page.where)).orderBy(...page.orderBy).limit(page.limit);
  return page.page(rows, (row) => row.id, (row) => rowOut(ctx, row));
}

/** A new endpoint, signing with svix-* headers too; the application's throttleRate is its default rate. */
export async function createSvixEndpoint(ctx: Ctx, appRef: string, input: EndpointIn): Promise<EndpointOut> {
  const app = await appOf(ctx, appRef);
  let secret: string | undefined;
  if (input.secret) {
    try {
      secret = checkSecret(input.secret);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      throw new SvixValidationError([{ loc: ["body", "secret"], msg: error.errors?.[0]?.message ?? error.message, type: "value_error" }]);
    }
  }
  const created = ours(CreateEndpointInput, {
    ...whole(input, app.throttleRate),
    headers: input.headers ?? {},
    svix_headers: true,
    ...(secret ? { secret } : {}),
  });
  return toEndpointOut(await createEndpoint({ ctx, consumerRef: app.id, input: created }));
}

export async function getSvixEndpoint(ctx: Ctx, appRef: string, ref: string): Promise<EndpointOut> {
  return rowOut(ctx, await endpointIn(ctx, appRef, ref));
}

/** PUT: replaced whole (200), or made with that uid (201). */
export async function upsertSvixEndpoint(ctx: Ctx, appRef: string, ref: string, input: EndpointUpdate): Promise<{ created: boolean; endpoint: EndpointOut }> {
  const app = await appOf(ctx, appRef);
  const existing = await findEndpointRow(ctx, ref, { consumerId: app.id }).catch((error: unknown) => {
    if (error instanceof NotFoundError) return null;
    throw error;
  });
  if (existing) httpOnly(existing);
  if (!existing) {
    if (ref.startsWith("ep_")) throw new NotFoundError("endpoint", ref);
    return { created: true, endpoint: await createSvixEndpoint(ctx, app.id, { ...input, uid: input.uid ?? ref }) };
  }
  const changes = ours(UpdateEndpointInput, whole(input, app.throttleRate));
  return { created: false, endpoint: toEndpointOut(await updateEndpoint({ ctx, id: existing.id, input: changes })) };
}

/** PATCH: the fields given; `null` unsets. */
export async function patchSvixEndpoint(ctx: Ctx, appRef: string, ref: string, patch: EndpointPatch): Promise<EndpointOut> {
  const existing = await endpointIn(ctx, appRef, ref);
  const types = patch.eventTypes !== undefined ? patch.eventTypes : patch.filterTypes;
  const rate = patch.throttleRate !== undefined ? patch.throttleRate : patch.rateLimit;
  const changes = ours(UpdateEndpointInput, {
    ...(patch.url !== undefined && patch.url !== null ? { url: patch.url } : {}),
    ...(patch.uid !== undefined ? { uid: patch.uid } : {}),
    ...(patch.description !== undefined ? { description: patch.description ?? "" } : {}),
    ...(patch.metadata !== undefined ? { metadata: patch.metadata ?? {} } : {}),
    ...(types !== undefined ? { event_types: list(types) } : {}),
    ...(patch.channels !== undefined ? { channels: list(patch.channels) } : {}),
    ...(rate !== undefined ? { rate_limit_per_second: rate } : {}),
    ...(patch.disabled !== undefined && patch.disabled !== null ? { disabled: patch.disabled } : {}),
  });
  return toEndpointOut(await updateEndpoint({ ctx, id: existing.id, input: changes }));
}

export async function deleteSvixEndpoint(ctx: Ctx, appRef: string, ref: string): Promise<void> {
  await deleteEndpoint({ ctx, id: (await endpointIn(ctx, appRef, ref)).id });
}

export async function getSvixEndpointSecret(ctx: Ctx, appRef: string, ref: string) {
  return getEndpointSecret({ ctx, id: (await endpointIn(ctx, appRef, ref)).id });
}

export const RotateIn = z.object({ key: z.string().nullish(), gracePeriodSeconds: z.number().int().min(0).max(604_800).nullish() });

/** A new secret (the one given, or a new one); the old one keeps signing for `gracePeriodSeconds` (default 24 h). */
export async function rotateSvixEndpointSecret(ctx: Ctx, appRef: string, ref: string, input: z.infer<typeof RotateIn>): Promise<void> {
  const { id } = await endpointIn(ctx, appRef, ref);
  await rotateEndpointSecret({ ctx, id, key: input.key ?? undefined, graceSeconds: input.gracePeriodSeconds ?? undefined });
}

/** Header names whose values Svix never answers back. */
const SENSITIVE = new Set(["authorization", "proxy-authorization", "x-api-key", "x-auth-token", "www-authenticate", "proxy-authenticate"]);

export const EndpointHeadersOut = z.object({ headers: z.record(z.string(), z.string()), sensitive: z.array(z.string()) });
export const HeadersIn = z.object({ headers: z.record(z.string(), z.string()) });
export const HeadersPatchIn = z.object({ headers: z.record(z.string(), z.string().nullable()), deleteHeaders: z.array(z.string()).nullish() });

export async function getSvixEndpointHeaders(ctx: Ctx, appRef: string, ref: string): Promise<z.infer<typeof EndpointHeadersOut>> {
  // Values as the reader may see them (masked without the right to read secrets), sensitive ones left out.
  const { headers } = toEndpoint(await endpointIn(ctx, appRef, ref), ctx.config.ENDPOINT_MAX_CONCURRENCY, maySeeSecrets(ctx));
  const sensitive = Object.keys(headers).filter((name) => SENSITIVE.has(name.toLowerCase()));
  return { headers: Object.fromEntries(Object.entries(headers).filter(([name]) => !SENSITIVE.has(name.toLowerCase()))), sensitive };
}

/** PUT replaces the headers; PATCH merges, a `null` value or `deleteHeaders` removing one. */
export async function setSvixEndpointHeaders(ctx: Ctx, appRef: string, ref: string, headers: Record<string, string>): Promise<void> {
  const { id } = await endpointIn(ctx, appRef, ref);
  await updateEndpoint({ ctx, id, input: ours(UpdateEndpointInput, { headers }) });
}

export async function patchSvixEndpointHeaders(ctx: Ctx, appRef: string, ref: string, patch: z.infer<typeof HeadersPatchIn>): Promise<void> {
  const existing = await endpointIn(ctx, appRef, ref);
  const gone = new Set([...(patch.deleteHeaders ?? []), ...Object.entries(patch.headers).filter(([, v]) => v === null).map(([k]) => k)].map((n) => n.toLowerCase()));
  const merged: Record<string, string> = {};
  for (const [name, value] of Object.entries(existing.headers)) if (!gone.has(name.toLowerCase())) merged[name] = value;
  for (const [name, value] of Object.entries(patch.headers)) {
    if (value === null) continue;
    for (const key of Object.keys(merged)) if (key.toLowerCase() === name.toLowerCase()) delete merged[key];
    merged[name] = value;
  }
  await updateEndpoint({ ctx, id: existing.id, input: ours(UpdateEndpointInput, { headers: merged }) });
}

export const RecoverIn = z.object({ since: SvixTime, until: SvixTime.nullish() });

/**
 * recover: a recovery run of the endpoint's failed deliveries in the window; replay-missing: one
 * that also sends what the endpoint never got (`include_never_attempted`). Answered as a running task.
 */
export async function recoverSvixEndpoint(ctx: Ctx, appRef: string, ref: string, input: z.infer<typeof RecoverIn>, replay: boolean) {
  const { id } = await endpointIn(ctx, appRef, ref);
  if (input.until && input.until <= input.since) throw new SvixValidationError([{ loc: ["body", "until"], msg: "must be after since", type: "value_error" }]);
  const { recovery } = await createRecovery({
    ctx,
    target: { endpoint: id },
    input: { since: input.since, ...(input.until ? { until: input.until } : {}), ...(replay ? { include_never_attempted: true } : {}) },
  });
  if (!recovery) throw new Error("a recovery that is not a dry run answers its run");
  const task = toBackgroundTask(await findRecoveryRow(ctx, recovery.id));
  // Svix answers a task just started as running, whatever our run did in the meantime.
  return { id: task.id, status: "running" as const, task: task.task, updatedAt: task.updatedAt };
}

export const StatsQuery = z.object({ since: SvixTime.optional(), until: SvixTime.optional() });
export const EndpointStatsOut = z.object({ success: z.number(), pending: z.number(), sending: z.number(), fail: z.number(), canceled: z.number() });

const DAY_MS = 86_400_000;
/** Svix's widest window: 28 days, and five minutes for clocks (`now() - 28 days` from a client). */
export const STATS_WINDOW_MS = 28 * DAY_MS + 5 * 60_000;
/** The most queued deliveries the stats count: a backlog beyond reads as this many. */
export const STATS_QUEUE_COUNTED = 1_000;

/**
 * endpoint.getStats, as Svix serves it: `until` (default now, never in the future) and `since`
 * (default 28 days before it, never more: 400 `invalid_range`). `success` and `fail` count the
 * endpoint's attempts of the window, read from the stats rollup (lib/stats), never counted over
 * attempts or deliveries; `pending` and `sending` are its deliveries queued now — never tried, and
 * retrying — up to STATS_QUEUE_COUNTED; `canceled` is 0 (Svix's own counts attempts too).
 */
export async function svixEndpointStats(ctx: Ctx, appRef: string, ref: string, query: z.infer<typeof StatsQuery>): Promise<z.infer<typeof EndpointStatsOut>> {
  const now = Date.now();
  const until = query.until ?? new Date(now);
  if (until.getTime() > now) throw new AppError(400, "invalid_range", "Invalid range", "'until' cannot be in the future.");
  const since = query.since ?? new Date(until.getTime() - 28 * DAY_MS);
  if (until.getTime() - since.getTime() > STATS_WINDOW_MS) {
    throw new AppError(400, "invalid_range", "Invalid range", `'since' cannot be more than 28 days prior to ${until.toISOString()}.`);
  }
  const { id } = await endpointIn(ctx, appRef, ref);
  const totals = await readEndpointTotals(ctx, id, since, until);
  const [queued] = await ctx.db
    .select({
      pending: sql<number>`count(*) filter (where ${deliveries.attempts} = 0)::int`,
      sending: sql<number>`count(*) filter (where ${deliveries.attempts} > 0)::int`,
    })
    .from(
      ctx.db
        .select({ deliveryId: deliveryQueue.deliveryId })
        .from(deliveryQueue)
        .where(and(eq(deliveryQueue.endpointId, id), eq(deliveryQueue.kind, QUEUE_KINDS.scheduled)))
        .limit(STATS_QUEUE_COUNTED)
        .as("queued"),
    )
    .innerJoin(deliveries, sql`${deliveries.id} = queued.delivery_id`);
  return { success: totals.succeeded, pending: queued?.pending ?? 0, sending: queued?.sending ?? 0, fail: totals.failed, canceled: 0 };
}

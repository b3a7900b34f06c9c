import { and, eq, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { consumerScope, type Ctx } from "../context";
import { consumers } from "../db/schema";
import { CreateConsumerInput, createConsumer, findConsumer, updateConsumer } from "../consumers";
import { deleteConsumer } from "../retention/delete-consumer";
import { NotFoundError } from "../errors";
import { keyset, QueryBool, ListQuery, scopedIterator } from "./request";

/**
 * Svix applications over our consumers: an application is a consumer, its `id` the consumer's
 * `con_…` id (the SDKs never check the prefix), and the path takes its id, its uid or the Svix id
 * it was imported with. A consumer made without a uid is known by its id, and answers `uid: null`.
 */
type ConsumerRow = typeof consumers.$inferSelect;

/** Svix's uid rule, and never a prefix of ours or Svix's ids, so imported ids stay unambiguous aliases. */
export const SvixUid = z
  .string()
  .min(1)
  .max(256)
  .regex(/^[a-zA-Z0-9\-_.]+$/, "may contain only letters, digits and - _ .")
  .refine((v) => !/^(app|con)_/.test(v), "must not start with app_ or con_");

/** Svix metadata is string → string; within our consumer metadata's limits. */
export const SvixMetadata = z
  .record(z.string(), z.string())
  .refine((v) => CreateConsumerInput.shape.metadata.safeParse(v).success, "keys of at most 100 characters, at most 16 KiB as JSON, no U+0000");

const Rate = z.number().int().min(1).max(65_535);

export const ApplicationIn = z.object({
  name: CreateConsumerInput.shape.name,
  uid: SvixUid.nullish(),
  metadata: SvixMetadata.nullish(),
  throttleRate: Rate.nullish(),
  /** Deprecated by Svix in favour of throttleRate. */
  rateLimit: Rate.nullish(),
});
export type ApplicationIn = z.infer<typeof ApplicationIn>;

export const ApplicationPatch = ApplicationIn.partial();
export type ApplicationPatch = z.infer<typeof ApplicationPatch>;

export const ApplicationOut = z.object({
  id: z.string(),
  uid: z.string().nullable(),
  name: z.string(),
  metadata: z.record(z.string(), z.string()),
  throttleRate: z.number().nullable(),
  rateLimit: z.number().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ApplicationOut = z.infer<typeof ApplicationOut>;

export const ListApplicationsQuery = ListQuery.extend({
  exclude_apps_with_no_endpoints: QueryBool.optional(),
  exclude_apps_with_disabled_endpoints: QueryBool.optional(),
});

/** Metadata as Svix's typed SDKs need it: every value a string. */
export function stringMetadata(metadata: Record<string, unknown> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(metadata ?? {}).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]));
}

export function toApplicationOut(ctx: Ctx, row: ConsumerRow): ApplicationOut {
  return {
    id: row.id,
    uid: row.uid === row.id ? null : row.uid,
    name: row.name,
    // A customer in the portal never sees the SaaS's metadata (as on our own API).
    metadata: ctx.actor.type === "portal" ? {} : stringMetadata(row.metadata),
    throttleRate: row.throttleRate,
    rateLimit: row.throttleRate,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function listApplications(ctx: Ctx, query: z.infer<typeof ListApplicationsQuery>) {
  const scope = consumerScope(ctx);
  // One being erased (lib/retention) is gone from every read.
  const visible = and(isNull(consumers.deletedAt), scope ? eq(consumers.id, scope) : undefined);
  const page = keyset(consumers.id, (await scopedIterator(ctx, consumers, consumers, visible, query)).query, "ascending");
  const rows = await ctx.db
    .select()
    .from(consumers)
    .where(
      and(
        page.where,
        visible,
        query.exclude_apps_with_no_endpoints ? sql`exists (select 1 from endpoints e where e.consumer_id = ${consumers.id})` : undefined,
        query.exclude_apps_with_disabled_endpoints ? sql`not exists (select 1 from endpoints e where e.consumer_id = ${consumers.id} and e.state <> 'active')` : undefined,
      ),
    )
    .orderBy(...page.orderBy)
    .limit(page.limit);
  return page.page(rows, (row) => row.id, (row) => toApplicationOut(ctx, row));
}

export async function getApplication(ctx: Ctx, ref: string): Promise<ApplicationOut> {
  return toApplicationOut(ctx, await findConsumer(ctx, ref));
}

async function findOrNull(ctx: Ctx, ref: string): Promise<ConsumerRow | null> {
  return findConsumer(ctx, ref).catch((error: unknown) => {
    if (error instanceof NotFoundError) return null;
    throw error;
  });
}

/** POST /app: 201 with the new application; with `getIfExists`, 200 with the one of that uid if there is one. */
export async function createApplication(ctx: Ctx, input: ApplicationIn, getIfExists: boolean): Promise<{ created: boolean; app: ApplicationOut }> {
  if (getIfExists && input.uid) {
    const existing = await findOrNull(ctx, input.uid);
    if (existing) return { created: false, app: toApplicationOut(ctx, existing) };
  }
  const consumer = await createConsumer({
    ctx,
    input: { uid: input.uid ?? undefined, name: input.name, metadata: input.metadata ?? undefined, throttle_rate: input.throttleRate ?? input.rateLimit ?? null },
  });
  return { created: true, app: toApplicationOut(ctx, await findConsumer(ctx, consumer.id)) };
}

/** PUT /app/{app_id}: the application replaced whole (200), or made with that uid (201). */
export async function upsertApplication(ctx: Ctx, ref: string, input: ApplicationIn): Promise<{ created: boolean; app: ApplicationOut }> {
  const existing = await findOrNull(ctx, ref);
  if (!existing) {
    // An id names one that exists; anything else is the uid of one to make.
    if (/^(app|con)_/.test(ref)) throw new NotFoundError("application", ref);
    return createApplication(ctx, { ...input, uid: input.uid ?? ref }, false);
  }
  await updateConsumer({
    ctx,
    ref: existing.id,
    input: { name: input.name, uid: input.uid ?? null, metadata: input.metadata ?? {}, throttle_rate: input.throttleRate ?? input.rateLimit ?? null },
  });
  return { created: false, app: await getApplication(ctx, existing.id) };
}

/** PATCH /app/{app_id}: the fields given; `null` unsets one. */
export async function patchApplication(ctx: Ctx, ref: string, patch: ApplicationPatch): Promise<ApplicationOut> {
  const existing = await findConsumer(ctx, ref);
  const rate = patch.throttleRate !== undefined ? patch.throttleRate : patch.rateLimit;
  await updateConsumer({
    ctx,
    ref: existing.id,
    input: {
      ...(patch.name !== undefined && patch.name !== null ? { name: patch.name } : {}),
      ...(patch.uid !== undefined ? { uid: patch.uid } : {}),
      ...(patch.metadata !== undefined ? { metadata: patch.metadata ?? {} } : {}),
      ...(rate !== undefined ? { throttle_rate: rate } : {}),
    },
  });
  return getApplication(ctx, existing.id);
}

export async function deleteApplication(ctx: Ctx, ref: string): Promise<void> {
  await deleteConsumer({ ctx, ref });
}

import { and, eq } from "drizzle-orm";
import { z } from "zod";
import type { Ctx } from "../context";
import { ALERT_KINDS, createAlertChannel, deleteAlertChannel, findAlertChannelRow, updateAlertChannel, type AlertKind } from "../alerts";
import { openChannelConfig } from "../alerts/channel-config";
import { alertChannels } from "../db/schema";
import { NotFoundError } from "../errors";
import { generateSecret } from "../webhooks/sign";
import { namingFields, SvixValidationError } from "./errors";
import { keyset, scopedIterator, type ListQuery } from "./request";

/**
 * Svix's operational webhook endpoints (the sender's own webhooks about its deliveries) over our
 * alert channels of kind `webhook` — signed `{type, timestamp, data}` POSTs of our alert kinds
 * (docs/alerts.md). `eventTypes` (1.x: `filterTypes`) are alert kinds; `description` is the channel's name. What a
 * channel does not have (a uid, metadata, a throttle, custom headers, being disabled) is refused
 * 422 when asked for, never stored and ignored. The URL is answered masked, as our API answers it.
 */
type ChannelRow = typeof alertChannels.$inferSelect;

/** A channel's name when the caller gives no description. */
const DEFAULT_NAME = "Operational webhook";

const fields = {
  url: z.string(),
  description: z.string().max(256).nullish(),
  eventTypes: z.array(z.string()).nullish(),
  /** 1.x's name for eventTypes. */
  filterTypes: z.array(z.string()).nullish(),
  throttleRate: z.number().int().nullish(),
  /** 1.x's deprecated name for throttleRate. */
  rateLimit: z.number().int().nullish(),
  uid: z.string().nullish(),
  disabled: z.boolean().nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
};
export const OperationalWebhookEndpointIn = z.object({ ...fields, secret: z.string().nullish(), headers: z.record(z.string(), z.string()).nullish() });
export type OperationalWebhookEndpointIn = z.infer<typeof OperationalWebhookEndpointIn>;
export const OperationalWebhookEndpointUpsertIn = z.object(fields);
export type OperationalWebhookEndpointUpsertIn = z.infer<typeof OperationalWebhookEndpointUpsertIn>;

export const OperationalWebhookEndpointOut = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  eventTypes: z.array(z.string()).nullable(),
  filterTypes: z.array(z.string()).nullable(),
  disabled: z.boolean(),
  uid: z.null(),
  throttleRate: z.null(),
  rateLimit: z.null(),
  metadata: z.record(z.string(), z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type OperationalWebhookEndpointOut = z.infer<typeof OperationalWebhookEndpointOut>;

export const OperationalWebhookEndpointSecretIn = z.object({ key: z.string().nullish(), gracePeriodSeconds: z.number().int().min(0).max(604_800).nullish() });
export const OperationalWebhookEndpointHeadersIn = z.object({ headers: z.record(z.string(), z.string()) });
export const OperationalWebhookEndpointHeadersOut = z.object({ headers: z.record(z.string(), z.string()), sensitive: z.array(z.string()) });

function toOut(row: ChannelRow): OperationalWebhookEndpointOut {
  return {
    id: row.id,
    url: String(row.configMasked.url ?? ""),
    description: row.name,
    // Both names, as for endpoints: 1.x reads filterTypes, 2.x eventTypes.
    eventTypes: row.kinds,
    filterTypes: row.kinds,
    disabled: false,
    uid: null,
    throttleRate: null,
    rateLimit: null,
    metadata: {},
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const unsupported = (field: string, what: string) => ({ loc: ["body", field], msg: `${what} is not supported by this server's operational webhooks`, type: "value_error" });

/** The fields a channel has no place for, refused when they ask for something; the event types, checked as alert kinds. */
function channelInput(input: OperationalWebhookEndpointUpsertIn & { headers?: Record<string, string> | null }) {
  const eventTypes = input.eventTypes ?? input.filterTypes;
  const faults = [
    ...(input.uid ? [unsupported("uid", "a uid")] : []),
    ...(input.throttleRate || input.rateLimit ? [unsupported(input.throttleRate ? "throttleRate" : "rateLimit", "a throttle rate")] : []),
    ...(input.disabled ? [unsupported("disabled", "a disabled endpoint (delete it instead)")] : []),
    ...(input.metadata && Object.keys(input.metadata).length ? [unsupported("metadata", "metadata")] : []),
    ...(input.headers && Object.keys(input.headers).length ? [unsupported("headers", "custom headers")] : []),
    ...(eventTypes ?? [])
      .filter((kind) => !(ALERT_KINDS as readonly string[]).includes(kind))
      .map((kind) => ({ loc: ["body", "eventTypes"], msg: `"${kind}" is not one of this server's alert kinds: ${ALERT_KINDS.join(", ")}`, type: "value_error" })),
  ];
  if (faults.length) throw new SvixValidationError(faults);
  return { name: input.description || DEFAULT_NAME, kinds: eventTypes?.length ? (eventTypes as AlertKind[]) : null };
}

// Our field paths as Svix names them, for a 422 from our own checks (the URL under the SSRF rules, the secret).
const SVIX_FIELDS: Record<string, string> = { "config.url": "url", "config.secret": "secret", name: "description", kinds: "eventTypes" };

const asSvix = <T>(work: () => Promise<T>) => namingFields(work, (steps) => (steps.length ? [SVIX_FIELDS[steps.join(".")] ?? steps.join(".")] : []));

/** A channel of kind webhook; any other id (a Slack channel's too) is 404. */
async function webhookChannel(ctx: Ctx, id: string): Promise<ChannelRow> {
  const row = await findAlertChannelRow(ctx, id);
  if (row.kind !== "webhook") throw new NotFoundError("operational webhook endpoint", id);
  return row;
}

const isWebhook = eq(alertChannels.kind, "webhook");

/** Newest first, as Svix's endpoint lists. */
export async function listOperationalWebhookEndpoints(ctx: Ctx, query: ListQuery) {
  const page = keyset(alertChannels.id, (await scopedIterator(ctx, alertChannels, alertChannels, isWebhook, query)).query, "descending");
  const rows = await ctx.db.select().from(alertChannels).where(and(isWebhook, page.where)).orderBy(...page.orderBy).limit(page.limit);
  return page.page(rows, (row) => row.id, toOut);
}

export async function createOperationalWebhookEndpoint(ctx: Ctx, input: OperationalWebhookEndpointIn): Promise<OperationalWebhookEndpointOut> {
  const { name, kinds } = channelInput(input);
  const made = await asSvix(() =>
    createAlertChannel({ ctx, input: { kind: "webhook", name, config: { url: input.url, ...(input.secret ? { secret: input.secret } : {}) }, ...(kinds ? { kinds } : {}) } }),
  );
  return getOperationalWebhookEndpoint(ctx, made.id);
}

export async function getOperationalWebhookEndpoint(ctx: Ctx, id: string): Promise<OperationalWebhookEndpointOut> {
  return toOut(await webhookChannel(ctx, id));
}

/** PUT: the channel as it is to be whole (its secret kept). Svix's upsert of an unknown id makes none here: 404. */
export async function updateOperationalWebhookEndpoint(ctx: Ctx, id: string, input: OperationalWebhookEndpointUpsertIn): Promise<OperationalWebhookEndpointOut> {
  await webhookChannel(ctx, id);
  const { name, kinds } = channelInput(input);
  await asSvix(() => updateAlertChannel({ ctx, id, input: { name, kinds, config: { url: input.url } } }));
  return getOperationalWebhookEndpoint(ctx, id);
}

export async function deleteOperationalWebhookEndpoint(ctx: Ctx, id: string): Promise<void> {
  await webhookChannel(ctx, id);
  await deleteAlertChannel({ ctx, id });
}

export async function getOperationalWebhookEndpointSecret(ctx: Ctx, id: string): Promise<{ key: string }> {
  const row = await webhookChannel(ctx, id);
  return { key: String(openChannelConfig(row.configCiphertext, ctx.config).secret) };
}

/** A channel signs with one secret: the new one replaces the old at once, whatever `gracePeriodSeconds` asks. */
export async function rotateOperationalWebhookEndpointSecret(ctx: Ctx, id: string, input: z.infer<typeof OperationalWebhookEndpointSecretIn>): Promise<void> {
  await webhookChannel(ctx, id);
  await asSvix(() => updateAlertChannel({ ctx, id, input: { config: { secret: input.key ?? generateSecret() } } }));
}

export async function getOperationalWebhookEndpointHeaders(ctx: Ctx, id: string): Promise<z.infer<typeof OperationalWebhookEndpointHeadersOut>> {
  await webhookChannel(ctx, id);
  return { headers: {}, sensitive: [] };
}

/** A channel sends no custom headers: setting none is all it takes. */
export async function setOperationalWebhookEndpointHeaders(ctx: Ctx, id: string, input: z.infer<typeof OperationalWebhookEndpointHeadersIn>): Promise<void> {
  await webhookChannel(ctx, id);
  channelInput({ url: "", headers: input.headers });
}

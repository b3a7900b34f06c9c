import { z } from "zod";
import { ConsumerRef } from "../consumers/schemas";
import type { alertChannels, alerts } from "../db/schema";
import { EndpointRef } from "../endpoints/schemas";
import { CHANNEL_CONFIGS } from "./channel-config";
import { ALERT_CHANNEL_KINDS, ALERT_KINDS, TEST_ALERT_KIND } from "./kinds";
import { IsoDate, Text } from "../schemas";

const Name = Text.trim().min(1).max(256);
/** The alert kinds a channel receives; null or absent: all of them. */
const Kinds = z.array(z.enum(ALERT_KINDS)).min(1).max(ALERT_KINDS.length).nullable();

const createFor = <K extends keyof typeof CHANNEL_CONFIGS>(kind: K) =>
  z.strictObject({ kind: z.literal(kind), name: Name, config: CHANNEL_CONFIGS[kind], kinds: Kinds.optional() });

export const CreateAlertChannelInput = z.discriminatedUnion("kind", [
  createFor("slack"),
  createFor("teams"),
  createFor("chatwork"),
  createFor("email"),
  createFor("webhook"),
]);
export type CreateAlertChannelInput = z.infer<typeof CreateAlertChannelInput>;

export const UpdateAlertChannelInput = z.strictObject({
  name: Name.optional(),
  config: z
    .record(z.string(), z.unknown())
    .optional()
    .describe("Fields of the channel's config to replace; the others (credentials included) are kept. The kind cannot change."),
  kinds: Kinds.optional(),
});
export type UpdateAlertChannelInput = z.infer<typeof UpdateAlertChannelInput>;

export const AlertChannel = z.object({
  id: z.string(),
  kind: z.enum(ALERT_CHANNEL_KINDS),
  name: z.string(),
  /** Credentials masked: URLs show their origin and last characters, tokens their last characters. */
  config: z.record(z.string(), z.unknown()),
  kinds: z.array(z.string()).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type AlertChannel = z.infer<typeof AlertChannel>;

/** A channel as the alert log names it. */
export const AlertChannelRef = z.object({ id: z.string(), name: z.string(), kind: z.enum(ALERT_CHANNEL_KINDS) });
export type AlertChannelRef = z.infer<typeof AlertChannelRef>;

/** POST /alert-channels answers the channel; a webhook channel's signing secret is shown this once. */
export const CreatedAlertChannel = AlertChannel.extend({
  secret: z.string().optional().describe("Webhook channels only: the `whsec_…` signing secret, shown once."),
});
export type CreatedAlertChannel = z.infer<typeof CreatedAlertChannel>;

export function toAlertChannel(row: typeof alertChannels.$inferSelect): AlertChannel {
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    config: row.configMasked,
    kinds: row.kinds,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export const ListAlertsQuery = z.object({
  endpoint_id: Text.max(64).optional(),
  kind: z.enum([...ALERT_KINDS, TEST_ALERT_KIND]).optional(),
  since: IsoDate.optional(),
});
export type ListAlertsQuery = z.infer<typeof ListAlertsQuery>;

/** One row of the alert log. `recipient`, `error`, `message` and `attempts` extend the fields docs/api.md names. */
export const Alert = z.object({
  id: z.string(),
  kind: z.string(),
  endpoint_id: z.string().nullable(),
  channel_id: z.string().nullable(),
  status: z.enum(["sent", "suppressed", "failed"]),
  folded: z.number(),
  created_at: z.string(),
  consumer_id: z.string().nullable(),
  /** A consumer alert email's address (channel_id is null then). */
  recipient: z.string().nullable(),
  error: z.string().nullable(),
  /** What was sent: the request body, or an email's full text (also when SMTP is not configured). */
  message: z.string().nullable(),
  attempts: z.number(),
  /** The endpoint, consumer and channel named; null when the alert has none, or once it was deleted. */
  endpoint: EndpointRef.nullable(),
  consumer: ConsumerRef.nullable(),
  channel: AlertChannelRef.nullable(),
});
export type Alert = z.infer<typeof Alert>;

export type AlertRefs = { endpoint: EndpointRef | null; consumer: ConsumerRef | null; channel: AlertChannelRef | null };

export function toAlert(row: typeof alerts.$inferSelect, refs: AlertRefs): Alert {
  return {
    id: row.id,
    kind: row.kind,
    endpoint_id: row.endpointId,
    channel_id: row.channelId,
    // The list never shows pending rows (see listAlerts).
    status: row.status as Alert["status"],
    folded: row.folded,
    created_at: row.createdAt.toISOString(),
    consumer_id: row.consumerId,
    recipient: row.recipient,
    error: row.error,
    message: row.message,
    attempts: row.attempts,
    ...refs,
  };
}

/** POST /alert-channels/{id}/test answers the alert log row it will become. */
export const AlertTestQueued = z.object({ id: z.string(), kind: z.literal(TEST_ALERT_KIND), channel_id: z.string(), created_at: z.string() });
export type AlertTestQueued = z.infer<typeof AlertTestQueued>;

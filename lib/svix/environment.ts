import { z } from "zod";
import { inTransaction, type Ctx } from "../context";
import { CreateAlertChannelInput } from "../alerts";
import { AlertChannelTransfer, exportAlertChannels, importAlertChannel } from "../alerts/transfer-alert-channels";
import { namingFields, SvixValidationError } from "./errors";
import { EventTypeIn, EventTypeOut, listSvixEventTypes, upsertSvixEventType } from "./event-types";
import { MAX_LIMIT } from "./request";

/**
 * Svix's environment export and import: this deployment's event types (as eventType.list answers
 * them with content, archived ones too — what `svix import` reads) and, under `settings`, its alert
 * channels with their credentials, as one JSON document another deployment imports whole. Svix's
 * own settings keys are not this server's (its settings are its environment variables) and are
 * ignored on import; a connector is refused (there are none here).
 */
export const EnvironmentSettings = z.object({ alertChannels: z.array(AlertChannelTransfer) });

export const EnvironmentOut = z.object({
  version: z.literal(1),
  createdAt: z.string(),
  eventTypes: z.array(EventTypeOut),
  settings: EnvironmentSettings,
  connectors: z.array(z.never()),
});
export type EnvironmentOut = z.infer<typeof EnvironmentOut>;

/** At most this many event types (and as many alert channels) in one import: one transaction holds them. */
const IMPORT_MAX = 1_000;

export const EnvironmentIn = z.object({
  eventTypes: z.array(EventTypeIn).max(IMPORT_MAX).nullish(),
  settings: z.looseObject({ alertChannels: z.array(z.unknown()).max(IMPORT_MAX).nullish() }).nullish(),
  connectors: z.array(z.unknown()).nullish(),
});
export type EnvironmentIn = z.infer<typeof EnvironmentIn>;

export async function exportEnvironment(ctx: Ctx): Promise<EnvironmentOut> {
  const eventTypes: EventTypeOut[] = [];
  let iterator: string | undefined;
  for (;;) {
    const page = await listSvixEventTypes(ctx, { limit: MAX_LIMIT, iterator, include_archived: true, with_content: true });
    eventTypes.push(...page.data);
    if (page.done || !page.iterator) break;
    iterator = page.iterator;
  }
  return { version: 1, createdAt: new Date().toISOString(), eventTypes, settings: { alertChannels: await exportAlertChannels({ ctx }) }, connectors: [] };
}

/** Each alert channel as POST /alert-channels takes it; a fault named where it is in the document. */
function channelsOf(settings: EnvironmentIn["settings"]) {
  return (settings?.alertChannels ?? []).map((channel, i) => {
    const parsed = CreateAlertChannelInput.safeParse(channel);
    if (parsed.success) return parsed.data;
    throw new SvixValidationError(
      parsed.error.issues.map((issue) => ({ loc: ["body", "settings", "alertChannels", i, ...issue.path.map((p) => (typeof p === "number" ? p : String(p)))], msg: issue.message, type: "value_error" })),
    );
  });
}

/** A fault of one item, named where it is in the document (`["eventTypes", 3, …]`). */
const at = <T>(where: (string | number)[], work: () => Promise<T>) => namingFields(work, (steps) => [...where, ...steps]);

/** Adds and updates, deletes nothing: event types upserted by name, alert channels by kind and name — all or none. */
export async function importEnvironment(ctx: Ctx, input: EnvironmentIn): Promise<void> {
  if (input.connectors?.length) throw new SvixValidationError([{ loc: ["body", "connectors"], msg: "this server has no connectors", type: "value_error" }]);
  const channels = channelsOf(input.settings);
  await inTransaction(ctx, async (tx) => {
    for (const [i, { name, ...type }] of (input.eventTypes ?? []).entries()) await at(["eventTypes", i], () => upsertSvixEventType(tx, name, type));
    for (const [i, channel] of channels.entries()) await at(["settings", "alertChannels", i], () => importAlertChannel({ ctx: tx, channel }));
  });
}

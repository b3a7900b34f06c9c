import { z } from "zod";
import { ACTOR_TYPES } from "../db/schema/enums";

const isoDate = z.iso.datetime({ offset: true }).transform((v) => new Date(v));

export const ListAuditEventsQuery = z.object({
  actor_type: z.enum(ACTOR_TYPES).optional(),
  actor_id: z.string().min(1).max(64).optional(),
  target_id: z.string().min(1).max(256).optional(),
  action: z.string().min(1).max(100).optional(),
  since: isoDate.optional(),
  until: isoDate.optional(),
});
export type ListAuditEventsQuery = z.infer<typeof ListAuditEventsQuery>;

const Deleted = z.boolean().describe("The object no longer exists: its id is all that is left of it.");

export const AuditEventView = z.object({
  id: z.string(),
  actor: z.object({
    type: z.enum(ACTOR_TYPES),
    id: z.string().nullable(),
    name: z.string().nullable().describe("An operator's email, an API key's name, a portal session's consumer's name; null for the system or once deleted."),
    deleted: Deleted,
  }),
  action: z.string(),
  target_type: z.string(),
  target_id: z.string(),
  data: z.record(z.string(), z.unknown()),
  created_at: z.string(),
  target: z
    .object({
      type: z.string(),
      id: z.string(),
      name: z
        .string()
        .nullable()
        .describe(
          "What a person knows it by: a consumer's name, an endpoint's description (its URL when it has none), an operator's email, an API key's or alert channel's name, a recovery's endpoint or consumer, a portal session's consumer; null for a message, or once deleted.",
        ),
      detail: z
        .string()
        .nullable()
        .describe("Beside the name: a consumer's uid, an endpoint's URL, an API key's prefix, an alert channel's kind, a one-endpoint recovery's consumer, a portal session's consumer's uid."),
      deleted: Deleted,
    })
    .describe("The target named (target_type and target_id, with what a person knows it by)."),
});
export type AuditEventView = z.infer<typeof AuditEventView>;

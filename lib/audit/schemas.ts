import { z } from "zod";

export const ACTOR_TYPES = ["api_key", "operator", "portal", "system"] as const;

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

export const AuditEventView = z.object({
  id: z.string(),
  actor: z.object({ type: z.enum(ACTOR_TYPES), id: z.string().nullable() }),
  action: z.string(),
  target_type: z.string(),
  target_id: z.string(),
  data: z.record(z.string(), z.unknown()),
  created_at: z.string(),
});
export type AuditEventView = z.infer<typeof AuditEventView>;

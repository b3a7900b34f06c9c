import { z } from "zod";
import { ConsumerRef } from "../consumers/schemas";
import { EndpointRef } from "../endpoints/schemas";
import { EventTypeName } from "../event-types/schemas";
import { ITEM_OUTCOMES, RECOVERY_STATES, RECOVERY_STOP_REASONS, SKIP_REASONS, type recoveries, type recoveryItems } from "../db/schema";
import { IsoDate, Text } from "../schemas";

export const RECOVERABLE_STATUSES = ["failed", "canceled"] as const;

const Options = {
  rate_per_second: z.number().int().min(1).max(1000).optional(),
  canary: z.number().int().min(0).max(1000).optional(),
};

export const CreateRecoveryInput = z
  .strictObject({
    since: IsoDate,
    until: IsoDate.optional(),
    event_types: z.array(EventTypeName).min(1).max(100).optional(),
    statuses: z.array(z.enum(RECOVERABLE_STATUSES)).min(1).max(2).optional(),
    include_never_attempted: z.boolean().optional(),
    ...Options,
    stop_if_failure_ratio: z.number().min(0).max(1).optional(),
    dry_run: z.boolean().optional(),
  })
  .refine((v) => !v.until || v.until > v.since, { path: ["until"], message: "must be after since" });
export type CreateRecoveryInput = z.infer<typeof CreateRecoveryInput>;

export const RetryFailedInput = z.strictObject(Options);
export type RetryFailedInput = z.infer<typeof RetryFailedInput>;

export const ListRecoveriesQuery = z.object({
  consumer: Text.min(1).max(256).optional(),
  endpoint_id: Text.min(1).max(64).optional(),
  state: z.enum(RECOVERY_STATES).optional(),
});
export type ListRecoveriesQuery = z.infer<typeof ListRecoveriesQuery>;

export const ListItemsQuery = z.object({
  outcome: z.enum(ITEM_OUTCOMES).optional(),
  format: z.enum(["json", "csv"]).optional(),
});
export type ListItemsQuery = z.infer<typeof ListItemsQuery>;

type RecoveryRow = typeof recoveries.$inferSelect;
type ItemRow = typeof recoveryItems.$inferSelect;

/** What a recovery's answer names beside its ids (./queries.ts nameRecoveries reads them). */
export type RecoveryRefs = { consumer: ConsumerRef | null; endpoint: EndpointRef | null; createdBy: string | null };

/** The API's shape of a recovery; the feeder's bookkeeping (tokens, recent results) stays inside. */
export function toRecovery(row: RecoveryRow, refs: RecoveryRefs) {
  return {
    id: row.id,
    consumer_id: row.consumerId,
    endpoint_id: row.endpointId,
    state: row.state,
    stop_reason: row.stopReason,
    scope: row.scope,
    options: row.options,
    counts: { expected: row.expected, queued: row.queued, succeeded: row.succeeded, failed: row.failed, skipped: row.skipped },
    selection: { selecting: row.selecting, item_limit: row.itemLimit, capped: row.capped },
    created_by: { type: row.createdByType, id: row.createdById, name: refs.createdBy },
    created_at: row.createdAt.toISOString(),
    started_at: row.startedAt?.toISOString() ?? null,
    finished_at: row.finishedAt?.toISOString() ?? null,
    consumer: refs.consumer,
    endpoint: refs.endpoint,
  };
}

export function toItem(row: ItemRow, endpoint: EndpointRef | null) {
  return {
    delivery_id: row.deliveryId,
    message_id: row.messageId,
    endpoint_id: row.endpointId,
    outcome: row.outcome,
    skip_reason: row.skipReason,
    attempt_id: row.attemptId,
    status_code: row.statusCode,
    error: row.error,
    updated_at: row.updatedAt.toISOString(),
    endpoint,
  };
}
export const ITEM_COLUMNS = ["delivery_id", "message_id", "endpoint_id", "outcome", "skip_reason", "attempt_id", "status_code", "error", "updated_at"] as const;

// Answer schemas, for the OpenAPI document (lib/openapi checks they match what the code returns).
const Actor = z.object({
  type: z.enum(["api_key", "operator", "portal", "system"]),
  id: z.string().nullable(),
  /** An operator's email, an API key's name, a portal session's consumer's name; null for the system, once deleted, or (the SaaS's own people and keys) to a portal session. */
  name: z.string().nullable(),
});

export const Recovery = z.object({
  id: z.string(),
  consumer_id: z.string(),
  endpoint_id: z.string().nullable(),
  state: z.enum(RECOVERY_STATES),
  stop_reason: z.enum(RECOVERY_STOP_REASONS).nullable(),
  scope: z.object({
    since: z.string(),
    until: z.string(),
    event_types: z.array(z.string()).nullable(),
    statuses: z.array(z.string()),
    include_never_attempted: z.boolean(),
    retry_of: z.string().optional(),
  }),
  options: z.object({ rate_per_second: z.number(), canary: z.number(), stop_if_failure_ratio: z.number() }),
  counts: z.object({ expected: z.number(), queued: z.number(), succeeded: z.number(), failed: z.number(), skipped: z.number() }),
  /**
   * The run's items (`counts.expected` of them): `selecting` while the worker still freezes them (the
   * run stays planned; `expected` is the count made at creation until then), at most `item_limit`
   * (RECOVERY_MAX_ITEMS; null for a run made before the cap), `capped` when the scope held more and
   * its newest were left out.
   */
  selection: z.object({ selecting: z.boolean(), item_limit: z.number().nullable(), capped: z.boolean() }),
  created_by: Actor,
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  /** The consumer and, for a one-endpoint run, the endpoint, named; null once deleted (and `endpoint` for a consumer-wide run). */
  consumer: ConsumerRef.nullable(),
  endpoint: EndpointRef.nullable(),
});

export const RecoveryDryRun = z.object({
  expected: z.number(),
  by_endpoint: z.array(z.object({ endpoint_id: z.string(), expected: z.number() })),
  already_in_recovery: z.number(),
  sample: z.array(
    z.object({
      message_id: z.string(),
      endpoint_id: z.string(),
      delivery_id: z.string().nullable(),
      event_type: z.string(),
      status: z.string(),
      created_at: z.string(),
    }),
  ),
});

export const RecoveryItem = z.object({
  delivery_id: z.string().nullable(),
  message_id: z.string(),
  endpoint_id: z.string(),
  outcome: z.enum(ITEM_OUTCOMES),
  skip_reason: z.enum(SKIP_REASONS).nullable(),
  attempt_id: z.string().nullable(),
  status_code: z.number().nullable(),
  error: z.string().nullable(),
  updated_at: z.string(),
  /** The endpoint named; null once it was deleted. */
  endpoint: EndpointRef.nullable(),
});

export type Recovery = z.infer<typeof Recovery>;
/** A dry run's answer (POST …/recover with `dry_run: true`): what a run would take, nothing written. */
export type RecoveryDryRun = z.infer<typeof RecoveryDryRun>;
export type RecoveryCounts = Recovery["counts"];
export type RecoveryItem = z.infer<typeof RecoveryItem>;

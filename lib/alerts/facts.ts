import { z } from "zod";
import { ALERT_KINDS, TEST_ALERT_KIND } from "./kinds";

/** The facts raiseAlerts' callers pass in `data`; unknown keys pass through to the webhook channel. */
export const AlertData = z.looseObject({
  reason: z.string().optional(),
  failing_since: z.string().nullable().optional(),
  last_status_code: z.number().nullable().optional(),
  last_error: z.string().nullable().optional(),
  message_id: z.string().optional(),
  delivery_id: z.string().optional(),
  event_type: z.string().optional(),
  attempts: z.number().optional(),
  // A recovery run's end or stop.
  recovery_id: z.string().optional(),
  stop_reason: z.string().optional(),
  expected: z.number().optional(),
  succeeded: z.number().optional(),
  failed: z.number().optional(),
  skipped: z.number().optional(),
});
export type AlertData = z.infer<typeof AlertData>;

/**
 * One alert as the fan-out snapshotted it into the alert log row (`alerts.payload`): every
 * renderer works from this alone, so a retry sends what the first try sent.
 */
export const AlertFacts = z.object({
  kind: z.enum([...ALERT_KINDS, TEST_ALERT_KIND]),
  raised_at: z.string(),
  endpoint: z.object({ id: z.string(), url: z.string(), description: z.string(), state: z.string() }).nullable(),
  consumer: z.object({ id: z.string(), uid: z.string(), name: z.string() }).nullable(),
  data: AlertData,
  /** Alerts about this endpoint, of any kind, this target did not get (suppressed or failed) since `folded_since`. */
  folded: z.number().int(),
  folded_since: z.string().nullable(),
  /** Who reads it: operators get a dashboard link; a consumer's own alert email does not. */
  audience: z.enum(["operator", "consumer"]),
  channel_name: z.string().optional(),
});
export type AlertFacts = z.infer<typeof AlertFacts>;

import { asTextArray } from "../../db/arrays";
import type { AttemptTrigger, DeliveryStatus } from "../../db/schema";

export type AttemptOutcome = {
  /** Fixed when the attempt ends, so a write retried after a lost commit answer logs it once. */
  attemptId: string;
  deliveryId: string;
  messageId: string;
  endpointId: string;
  consumerId: string;
  attemptNumber: number;
  trigger: AttemptTrigger;
  success: boolean;
  statusCode: number | null;
  error: string | null;
  errorDetail: string | null;
  responseBody: string;
  durationMs: number;
  requestHeaders: Record<string, string>;
  /** Where it was sent: the endpoint's URL at the time. */
  url: string;
  finishedAt: Date;
  /** The claim's lease on the queue row; an outcome moves the delivery only while this still holds. */
  leaseToken?: string;
  /** Scheduled attempts move the delivery along its schedule; manual and recovery ones do not (null). */
  next: { status: DeliveryStatus; attemptAt: Date | null } | null;
};

export type EndpointTally = { id: string; successAt: Date | null; failuresAfter: number; firstFailureAfter: Date | null; lastFailureAt: Date | null };

export type HealthPolicy = { failureThreshold: number; openForMs: number; defaultConcurrency: number };

/** One column of `rows` for an `unnest(…)`: text on the wire, cast in SQL (lib/db/arrays.ts). */
export function columnsOf<T>(rows: T[]) {
  return (pick: (row: T) => string | number | boolean | Date | null) => asTextArray(rows.map(pick));
}


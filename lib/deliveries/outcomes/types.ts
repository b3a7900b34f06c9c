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

/** One column of `rows` for an `unnest(…)`: text on the wire, cast in SQL (db/arrays.ts). */
export function columnsOf<T>(rows: T[]) {
  return (pick: (row: T) => string | number | boolean | Date | null) => asTextArray(rows.map(pick));
}

/**
 * The first and last of a batch's delivery ids. deliveries is partitioned by id, a day each (ADR
 * 0034): a statement that joins it to a batch's ids can prune the days only at run time, so its
 * plan takes in every day, and planning it opens every partition and index (about 35 days at
 * RETENTION_PERIOD=30d). `d.id between first and last` as well lets a plan made with the values
 * prune to the days the batch is in.
 */
export function idRange(ids: string[]): [first: string, last: string] {
  let first = ids[0]!;
  let last = first;
  for (const id of ids) {
    if (id < first) first = id;
    if (id > last) last = id;
  }
  return [first, last];
}

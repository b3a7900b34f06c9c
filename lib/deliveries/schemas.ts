// What the dashboard is given about deliveries (props, not an API answer): the screens import
// these types from here (import type), never re-typed.
import type { ConsumerRef } from "../consumers/schemas";

/** The overview's backlog figures (readBacklog). */
export type Backlog = {
  /** Deliveries not yet ended (each has its one scheduled queue row), counted up to the cap. */
  pending: number;
  pending_capped: boolean;
  /** The earliest due time among queue rows of any kind that are due now: how long work has waited. Null when nothing is due. */
  oldest_due_at: string | null;
};

/** Who is using the engine now (readConsumerLoad): the longest waits for a consumer's due work, and who took the attempts. */
export type ConsumerLoad = {
  waiting: { consumer: ConsumerRef; oldest_due_at: string; due: number; due_capped: boolean }[];
  shares: { window_minutes: number; total_attempts: number; consumers: { consumer: ConsumerRef; attempts: number; share: number }[] };
};

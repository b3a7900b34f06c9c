// What the dashboard is given about deliveries (props, not an API answer): the screens import
// these types from here (import type), never re-typed.

/** The overview's backlog figures (readBacklog). */
export type Backlog = {
  /** Deliveries not yet ended (each has its one scheduled queue row), counted up to the cap. */
  pending: number;
  pending_capped: boolean;
  /** The earliest due time among queue rows of any kind that are due now: how long work has waited. Null when nothing is due. */
  oldest_due_at: string | null;
};

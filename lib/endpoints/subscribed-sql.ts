import type { PendingQuery, Row } from "postgres";
import type { SqlOrTx } from "../db/client";

type Fragment = PendingQuery<Row[]>;

/**
 * Whether an endpoint's subscription takes a message, in SQL: its event types (null: every one) and
 * its channels (null: every message; else one in common with the message's). Ingest's fan-out, a
 * filter's try-out and a recovery's never-attempted messages all ask it the same way. Each side is
 * an expression of the statement: a joined row's columns, or values given.
 */
export function subscribedSql(
  sql: SqlOrTx,
  endpoint: { eventTypes: Fragment; channels: Fragment },
  message: { eventType: Fragment; channels: Fragment },
): Fragment {
  return sql`(${endpoint.eventTypes} is null or ${message.eventType} = any(${endpoint.eventTypes})) and (${endpoint.channels} is null or ${endpoint.channels} && ${message.channels})`;
}

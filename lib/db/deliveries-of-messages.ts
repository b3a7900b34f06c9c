import { and, eq, gte, inArray, sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { PendingQuery, Row } from "postgres";
import type { SqlOrTx } from "./client";
import { deliveries } from "./schema";
import { ID_PREFIXES, deliveryIdFloor, idRange } from "../ids";

/*
 * "The deliveries of these messages", for every read of deliveries by message_id. deliveries is
 * partitioned by id, a UTC day per partition (ADR 0034), and message_id alone prunes nothing: a
 * message's deliveries made before migration 0019 have ids of their own time, in the default
 * partition, so such a read descends every day's index. No delivery is made before its message
 * (deliveryIdFor gives it the message's millisecond; older ones are later), so each fragment also
 * says `id >= deliveryIdFloor(message)`, which prunes the days before the message's: at plan time
 * for a message or a list given as values, at run time, row by row, for a join on a message id
 * column. Answers are the same with or without the bound.
 *
 * Two dialects, the same three fragments: drizzle's (deliveriesOf…) and postgres.js's (…Sql, with
 * the table's alias in the statement, if it has one).
 */

// deliveryIdFloor in SQL, around a message id expression: the delivery prefix, then the message
// id's ten characters of time (lib/ids.ts).
const FLOOR_HEAD = `'${ID_PREFIXES.delivery}_' || substr(`;
const FLOOR_TAIL = `, ${ID_PREFIXES.message.length + 2}, 10)`;

/** deliveryIdFloor in SQL, of a message id expression written by the code (a joined row's column, e.g. `m.id`). */
export function deliveryIdFloorSql(messageId: string): string {
  return `${FLOOR_HEAD}${messageId}${FLOOR_TAIL}`;
}

/** drizzle: the deliveries of one message. */
export function deliveriesOfMessage(messageId: string): SQL {
  return and(eq(deliveries.messageId, messageId), gte(deliveries.id, deliveryIdFloor(messageId)))!;
}

/** drizzle: the deliveries of these messages, bounded by the oldest one's day. */
export function deliveriesOfMessages(messageIds: readonly string[]): SQL {
  if (messageIds.length === 0) return sql`false`;
  return and(inArray(deliveries.messageId, [...messageIds]), gte(deliveries.id, deliveryIdFloor(idRange(messageIds)[0])))!;
}

/** drizzle: the deliveries of the message whose id is `messageId` (a column of a row the statement joins). */
export function deliveriesOfMessageColumn(messageId: AnyColumn): SQL {
  return sql`${deliveries.messageId} = ${messageId} and ${deliveries.id} >= ${sql.raw(FLOOR_HEAD)}${messageId}${sql.raw(FLOOR_TAIL)}`;
}

const column = (alias: string, name: string) => (alias ? `${alias}.${name}` : name);

/** postgres.js: the deliveries of one message (`alias`: the statement's name for deliveries). */
export function deliveriesOfMessageSql(tx: SqlOrTx, messageId: string, alias = ""): PendingQuery<Row[]> {
  return tx`${tx(column(alias, "message_id"))} = ${messageId} and ${tx(column(alias, "id"))} >= ${deliveryIdFloor(messageId)}`;
}

/** postgres.js: the deliveries of these messages, bounded by the oldest one's day. */
export function deliveriesOfMessagesSql(tx: SqlOrTx, messageIds: readonly string[], alias = ""): PendingQuery<Row[]> {
  if (messageIds.length === 0) return tx`false`;
  return tx`${tx(column(alias, "message_id"))} = any(${[...messageIds]}::text[]) and ${tx(column(alias, "id"))} >= ${deliveryIdFloor(idRange(messageIds)[0])}`;
}

/**
 * postgres.js: the deliveries (named `alias` in the statement) of the message whose id is the SQL
 * expression `messageId` (a joined row's column, e.g. `m.id`: written by the code, never input).
 */
export function deliveriesOfMessageColumnSql(tx: SqlOrTx, alias: string, messageId: string): PendingQuery<Row[]> {
  return tx.unsafe(`${alias}.message_id = ${messageId} and ${alias}.id >= ${deliveryIdFloorSql(messageId)}`);
}

import { and, asc, eq, gt, type SQL } from "drizzle-orm";
import { consumerScope, type Ctx } from "../context";
import { getSql, type SqlOrTx } from "../db/client";
import { recoveries, recoveryItems } from "../db/schema";
import { keysetBefore, newestFirst } from "../db/keyset";
import { NotFoundError, ValidationError } from "../errors";
import { decodeCursor, toPage, type PageQuery } from "../pagination";
import { findConsumer } from "../consumers/queries";
import { ITEM_COLUMNS, toItem, toRecovery, type ListItemsQuery, type ListRecoveriesQuery } from "./schemas";

export type RecoveryRow = typeof recoveries.$inferSelect;

/** A run within the actor's scope; another consumer's run is simply not found. */
export async function findRecoveryRow(ctx: Ctx, id: string): Promise<RecoveryRow> {
  const scope = consumerScope(ctx);
  const [row] = await ctx.db
    .select()
    .from(recoveries)
    .where(and(eq(recoveries.id, id), scope ? eq(recoveries.consumerId, scope) : undefined))
    .limit(1);
  if (!row) throw new NotFoundError("recovery", id);
  return row;
}

export async function getRecovery(ctx: Ctx, id: string) {
  return toRecovery(await findRecoveryRow(ctx, id));
}

export async function listRecoveries(ctx: Ctx, query: PageQuery & ListRecoveriesQuery) {
  const cursor = decodeCursor(query.cursor);
  const scope = consumerScope(ctx);
  const consumerId = query.consumer ? (await findConsumer(ctx, query.consumer)).id : scope;
  const filters: (SQL | undefined)[] = [
    cursor ? keysetBefore(recoveries.createdAt, recoveries.id, cursor) : undefined,
    consumerId ? eq(recoveries.consumerId, consumerId) : undefined,
    query.endpoint_id ? eq(recoveries.endpointId, query.endpoint_id) : undefined,
    query.state ? eq(recoveries.state, query.state) : undefined,
  ];
  const rows = await ctx.db
    .select()
    .from(recoveries)
    .where(and(...filters))
    .orderBy(...newestFirst(recoveries.createdAt, recoveries.id))
    .limit(query.limit + 1);
  return toPage(rows, query.limit, toRecovery);
}

// Items page in run order (oldest message first); the cursor is the last item's position.
function encodeItemCursor(seq: number): string {
  return Buffer.from(`item.${seq}`).toString("base64url");
}

function decodeItemCursor(cursor: string | undefined): number | null {
  if (cursor === undefined) return null;
  const match = /^item\.(\d{1,9})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  if (!match) throw new ValidationError("The cursor is not one this API returned.", [{ path: "cursor", message: "invalid cursor" }], 400);
  return Number(match[1]);
}

/** The reconciliation report, a page at a time. */
export async function listRecoveryItems(ctx: Ctx, id: string, query: PageQuery & ListItemsQuery) {
  const run = await findRecoveryRow(ctx, id);
  const after = decodeItemCursor(query.cursor);
  const rows = await ctx.db
    .select()
    .from(recoveryItems)
    .where(
      and(
        eq(recoveryItems.recoveryId, run.id),
        after !== null ? gt(recoveryItems.seq, after) : undefined,
        query.outcome ? eq(recoveryItems.outcome, query.outcome) : undefined,
      ),
    )
    .orderBy(asc(recoveryItems.seq))
    .limit(query.limit + 1);
  const data = rows.slice(0, query.limit);
  const last = data[data.length - 1];
  return { data: data.map(toItem), next_cursor: rows.length > query.limit && last ? encodeItemCursor(last.seq) : null };
}

function csvField(value: unknown): string {
  if (value === null || value === undefined) return "";
  const text = value instanceof Date ? value.toISOString() : String(value);
  // Quoted when it must be; a leading formula character is defused for spreadsheet programs.
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/**
 * Every item of a run as CSV, streamed from a database cursor: a 100,000-item report is never held
 * in memory. The scope check happens before the first byte.
 */
export async function recoveryItemsCsv(ctx: Ctx, id: string, query: ListItemsQuery): Promise<ReadableStream<Uint8Array>> {
  const run = await findRecoveryRow(ctx, id);
  const sql = getSql();
  const encoder = new TextEncoder();
  const outcome = query.outcome ? sql`and outcome = ${query.outcome}` : sql``;
  const iterator = sql<Record<string, unknown>[]>`
    select delivery_id, message_id, endpoint_id, outcome, skip_reason, attempt_id, status_code, error, updated_at
    from recovery_items where recovery_id = ${run.id} ${outcome} order by seq`
    .cursor(1000)
    [Symbol.asyncIterator]();
  let headerSent = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode(`${ITEM_COLUMNS.join(",")}\r\n`));
        return;
      }
      const next = await iterator.next();
      if (next.done) return controller.close();
      const lines = next.value.map((row) => ITEM_COLUMNS.map((c) => csvField(row[c])).join(",")).join("\r\n");
      controller.enqueue(encoder.encode(`${lines}\r\n`));
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}

/** A run's row read raw inside a transaction (postgres.js), in the shape drizzle reads it. */
export async function readRun(tx: SqlOrTx, id: string, lock: "for update" | "" = ""): Promise<RecoveryRow | null> {
  const [row] = await tx<Record<string, unknown>[]>`select * from recoveries where id = ${id} ${lock ? tx`for update` : tx``}`;
  return row ? fromDb(row) : null;
}

export function fromDb(raw: Record<string, unknown>): RecoveryRow {
  const camel = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()), v]));
  return camel as RecoveryRow;
}

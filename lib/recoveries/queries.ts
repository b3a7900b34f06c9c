import { and, asc, eq, gt } from "drizzle-orm";
import { consumerScope, type Ctx } from "../context";
import { recoveries, recoveryItems } from "../db/schema";
import { selectPage } from "../db/keyset";
import { NotFoundError, ValidationError } from "../errors";
import { decodeCursor, toPage, type PageQuery } from "../pagination";
import { nameActors } from "../actors/actor-names";
import { consumerRefs, findConsumer, notErasing } from "../consumers/queries";
import { endpointRefs } from "../endpoints/queries";
import { ITEM_COLUMNS, toItem, toRecovery, type ListItemsQuery, type ListRecoveriesQuery } from "./schemas";

export type RecoveryRow = typeof recoveries.$inferSelect;

/**
 * A run within the actor's scope; another consumer's run is simply not found (404). The one reader
 * of a run's row: the API's reads, a person's moves (`lock`: under the row's lock, in the caller's
 * transaction) and the feeder, which has a raw transaction and no more of a ctx than `sql` and the
 * system actor. Read with postgres.js, in the shape drizzle reads it (every column is text, an
 * integer, a double, jsonb or a timestamp, which both read alike).
 */
export async function findRecoveryRow(ctx: Pick<Ctx, "sql" | "actor">, id: string, { lock = false }: { lock?: boolean } = {}): Promise<RecoveryRow> {
  const { sql } = ctx;
  const scope = consumerScope(ctx);
  const [row] = await sql<Record<string, unknown>[]>`
    select * from recoveries where id = ${id} ${scope ? sql`and consumer_id = ${scope}` : sql``} ${lock ? sql`for update` : sql``}`;
  if (!row) throw new NotFoundError("recovery", id);
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()), v])) as RecoveryRow;
}

export async function getRecovery(ctx: Ctx, id: string) {
  const row = await findRecoveryRow(ctx, id);
  return (await nameRecoveries(ctx, [row]))(row);
}

/**
 * Runs as the API answers them, with their consumer, endpoint and starter named: one lookup per
 * kind for all of `rows` (read after the runs themselves, and after any transaction that moved them).
 */
export async function nameRecoveries(ctx: Ctx, rows: RecoveryRow[]) {
  const [consumers, endpoints, actors] = await Promise.all([
    consumerRefs(ctx, rows.map((r) => r.consumerId)),
    endpointRefs(ctx, rows.map((r) => r.endpointId)),
    nameActors(ctx, rows.map((r) => ({ type: r.createdByType, id: r.createdById, consumerId: r.consumerId }))),
  ]);
  return (row: RecoveryRow) =>
    toRecovery(row, {
      consumer: consumers.get(row.consumerId) ?? null,
      endpoint: (row.endpointId && endpoints.get(row.endpointId)) || null,
      createdBy: actors({ type: row.createdByType, id: row.createdById, consumerId: row.consumerId }).name,
    });
}

export async function listRecoveries(ctx: Ctx, query: PageQuery & ListRecoveriesQuery) {
  // A bad cursor is refused (400) before an unknown consumer is looked up (404), as before selectPage.
  decodeCursor(query.cursor);
  const scope = consumerScope(ctx);
  const consumerId = query.consumer ? (await findConsumer(ctx, query.consumer)).id : scope;
  const rows = await selectPage(ctx.db, recoveries, query, [
    // A consumer being erased is gone from the list at once, as it is from every read.
    consumerId ? eq(recoveries.consumerId, consumerId) : await notErasing(ctx, recoveries.consumerId),
    query.endpoint_id ? eq(recoveries.endpointId, query.endpoint_id) : undefined,
    query.state ? eq(recoveries.state, query.state) : undefined,
  ]);
  return toPage(rows, query.limit, await nameRecoveries(ctx, rows.slice(0, query.limit)));
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
  const endpoints = await endpointRefs(ctx, data.map((row) => row.endpointId));
  return { data: data.map((row) => toItem(row, endpoints.get(row.endpointId) ?? null)), next_cursor: rows.length > query.limit && last ? encodeItemCursor(last.seq) : null };
}

function csvField(value: unknown): string {
  if (value === null || value === undefined) return "";
  const text = value instanceof Date ? value.toISOString() : String(value);
  // Quoted when it must be; a leading formula character is defused for spreadsheet programs.
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

const CSV_PAGE = 1000;
/** How long one export may take before it is cut off, however slowly its client reads. */
export const CSV_EXPORT_DEADLINE_MS = 10 * 60_000;

/**
 * Every item of a run as CSV, a page at a time: a 100,000-item report is never held in memory, and
 * no connection is held between pages. Each read runs one keyset query (the run's scope checked
 * again) and hands its connection back, so clients that stop reading cannot take the pool from
 * everyone else — a cursor would keep its connection until the last row was read. The scope check
 * happens before the first byte; after `deadlineMs` the stream errors, whatever it was doing.
 */
export async function recoveryItemsCsv(
  ctx: Ctx,
  id: string,
  query: ListItemsQuery,
  { deadlineMs = CSV_EXPORT_DEADLINE_MS }: { deadlineMs?: number } = {},
): Promise<ReadableStream<Uint8Array>> {
  const run = await findRecoveryRow(ctx, id);
  const scope = consumerScope(ctx);
  const { sql } = ctx;
  const encoder = new TextEncoder();
  let last: number | null = null;
  let inFlight: { cancel: () => unknown } | null = null;
  let timer: NodeJS.Timeout | undefined;
  let ended = false;
  const end = () => {
    ended = true;
    clearTimeout(timer);
    // A page still running gives its connection back now, not when it would have finished. A
    // cancel request that fails changes nothing: the page ends on its own and is thrown away.
    Promise.resolve(inFlight?.cancel()).catch(() => {});
    inFlight = null;
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      timer = setTimeout(() => {
        if (ended) return;
        end();
        controller.error(new Error(`the export took longer than ${deadlineMs} ms and was cut off`));
      }, deadlineMs);
      // A stalled export must not keep the process alive.
      timer.unref?.();
      controller.enqueue(encoder.encode(`${ITEM_COLUMNS.join(",")}\r\n`));
    },
    async pull(controller) {
      const page = sql<(Record<string, unknown> & { seq: number })[]>`
        select i.seq, i.delivery_id, i.message_id, i.endpoint_id, i.outcome, i.skip_reason, i.attempt_id, i.status_code, i.error, i.updated_at
        from recovery_items i join recoveries r on r.id = i.recovery_id
        where i.recovery_id = ${run.id} ${scope ? sql`and r.consumer_id = ${scope}` : sql``}
          ${last !== null ? sql`and i.seq > ${last}` : sql``} ${query.outcome ? sql`and i.outcome = ${query.outcome}` : sql``}
        order by i.seq limit ${CSV_PAGE}`;
      inFlight = page;
      let rows: (Record<string, unknown> & { seq: number })[];
      try {
        rows = await page;
      } catch (error) {
        // Canceled by the deadline or the client: the stream has already ended.
        if (ended) return;
        end();
        throw error;
      } finally {
        if (inFlight === page) inFlight = null;
      }
      if (ended) return;
      if (rows.length > 0) {
        last = rows[rows.length - 1]!.seq;
        const lines = rows.map((row) => ITEM_COLUMNS.map((c) => csvField(row[c])).join(",")).join("\r\n");
        controller.enqueue(encoder.encode(`${lines}\r\n`));
      }
      if (rows.length < CSV_PAGE) {
        end();
        controller.close();
      }
    },
    cancel() {
      end();
    },
  });
}

import { inTransaction, consumerScope, type Ctx } from "../context";
import type { SqlOrTx } from "../db/client";
import { isForeignKeyViolation, isRetryableConflict } from "../db/errors";
import { retryOnConflict } from "../db/retry";
import { QUEUE_KINDS } from "../db/schema";
import { placeInLines } from "../ordering";
import { recordMessagesIngested } from "../metrics/web";
import { activeTraceparent, inSpan } from "../telemetry/tracing";
import { claimEventIds } from "./claim-event-ids";
import { checkPayloads, type SchemaMark } from "./check-payloads";
import { answerFor, claimIdempotencyKeys, splitRepeatedKeys, type KeyAnswer } from "./claim-idempotency-keys";
import { findTargets } from "./find-targets";
import { loadFilters } from "./load-filters";
import type { CreateMessageResult, IngestItem, IngestResult, PreparedMessage, Refusal } from "./ingest-types";
import { prepareMessages } from "./prepare-messages";
import type { CreateMessageInput } from "./schemas";
import { sizePayloads } from "./size-payloads";
import { chooseWakeUp, wakeAfterCommit, wakeInTransaction } from "./wake-workers";
import { placeOf, writeMessages, type LinePlace } from "./write-messages";

export type { CreateMessageResult, IngestItem, IngestResult } from "./ingest-types";

type Args = {
  ctx: Ctx;
  input: CreateMessageInput;
  idempotencyKey?: string;
  /** A test send: this one endpoint gets it, whatever event types it filters on, marked as a test. */
  onlyEndpointId?: string;
  /** Refuse an `event_id` the consumer used within EVENT_ID_TTL (409 `event_id_taken`): the Svix API's rule. */
  uniqueEventId?: boolean;
};

/**
 * Ingest. One transaction holds the message (its payload serialized once: the exact bytes every
 * attempt sends), one delivery per matching active endpoint, and the job that wakes a worker — so
 * a committed message is always delivered and a failed request leaves nothing behind.
 */
export async function createMessage(args: Args): Promise<CreateMessageResult> {
  const outcome = (
    await ingestMessages({
      ctx: args.ctx,
      items: [{ input: args.input, idempotencyKey: args.idempotencyKey }],
      onlyEndpointId: args.onlyEndpointId,
      uniqueEventId: args.uniqueEventId,
    })
  )[0]!;
  if ("error" in outcome) throw outcome.error;
  const result = outcome;
  if (!result.replayed) recordMessagesIngested(1);
  return result;
}

type IngestArgs = {
  ctx: Ctx;
  items: IngestItem[];
  onlyEndpointId?: string;
  uniqueEventId?: boolean;
};

/**
 * Ingest of any number of messages (POST /messages is a batch of one, POST /messages/batch up to
 * 100): the valid ones in one transaction with one wake-up; an invalid one (payload too large,
 * consumer unknown, key used with another body) is refused alone and writes nothing.
 */
export function ingestMessages(args: IngestArgs): Promise<IngestResult[]> {
  // The `ingest` span (tracing on only), whose traceparent the messages keep for the attempts' links.
  return inSpan("ingest", { attributes: { "webhook_admin.messages": args.items.length } }, async (span) => {
    // An endpoint or a consumer deleted between the read of the targets and the insert fails the
    // insert's foreign key: read them again (a consumer gone is then a 404).
    const results = await retryOnConflict(() => ingest(args), (error) => isRetryableConflict(error) || isForeignKeyViolation(error));
    span?.setAttribute("webhook_admin.deliveries", results.reduce((n, r) => n + ("message" in r && !r.replayed ? r.message.deliveries : 0), 0));
    return results;
  });
}

/**
 * Ingest by its stages, each in a file of its own: payloads sized; checked against their event
 * types' schemas (not a test send's); each message's consumer and target endpoints found (the one
 * read, before any transaction) and their filters compiled; the messages prepared; then written —
 * their keys and event ids claimed, their lines at ordered endpoints taken, the messages,
 * deliveries and queue rows in one statement, the workers woken — and the repeats of a key answered.
 */
async function ingest({ ctx, items, onlyEndpointId, uniqueEventId }: IngestArgs): Promise<IngestResult[]> {
  const { config } = ctx;
  const results: (IngestResult | undefined)[] = new Array(items.length);
  const refuse = (refused: Refusal[]) => {
    for (const { index, error } of refused) results[index] = { error };
  };

  const sizedAll = sizePayloads(items, config.MAX_PAYLOAD_BYTES);
  refuse(sizedAll.refused);
  let sized = sizedAll;
  let schemaMarks = new Map<number, SchemaMark>();
  if (!onlyEndpointId) {
    const checked = await checkPayloads(ctx.sql, items, sizedAll);
    refuse(checked.refused);
    sized = checked.sized;
    schemaMarks = checked.marks;
  }
  if (sized.sized.length === 0) return results as IngestResult[];
  const targets = await findTargets(ctx.sql, sized.sized.map((index) => items[index]!.input), { scope: consumerScope(ctx), onlyEndpointId });
  const filters = await loadFilters(ctx.sql, targets);
  const firstDelay = config.DELIVERY_SCHEDULE[0] ?? 0;
  const { batch, refused } = prepareMessages(items, sized, targets, filters, firstDelay);
  refuse(refused);
  if (!batch) return results as IngestResult[];
  const { now, firstAttemptAt } = batch;
  const { firsts, keyed, repeats } = splitRepeatedKeys(batch.messages);
  const wakeUp = chooseWakeUp(firstDelay, Boolean(ctx.inTransaction));

  const writeOptions = {
    now,
    firstAttemptAt,
    isTest: Boolean(onlyEndpointId),
    traceparent: activeTraceparent(),
    genericChecks: !ctx.inTransaction,
    schemaMarks,
  };
  // A polling endpoint's long-polls listen for the same wake-up as the workers (lib/polling/wait-for-messages.ts).
  const dueNow = (rows: PreparedMessage[]) => rows.some((r) => r.endpointIds.length > 0 || r.polled);
  // What each key answers once this call commits (its repeats' answers).
  let answers = new Map<string, KeyAnswer>();
  let written: PreparedMessage[] = [];
  const lined = firsts.some((r) => r.lineKeys);
  if (keyed.length === 0 && !uniqueEventId && !lined && wakeUp === "after-commit") {
    // Nothing to claim first and no wake-up to commit with it: the messages, their deliveries and
    // the queue rows are one statement, atomic on its own, so no BEGIN and COMMIT round trips.
    // (A deadlock or a target deleted meanwhile is retried by ingestMessages, as for the transaction.)
    await writeMessages(ctx.sql, firsts, writeOptions);
    written = firsts;
  } else {
    await inTransaction(ctx, async ({ sql: tx }) => {
      let rows = firsts;
      if (keyed.length > 0) {
        const claimed = await claimIdempotencyKeys(tx, keyed, { now, expiresAt: new Date(now.getTime() + config.IDEMPOTENCY_TTL) });
        answers = claimed.answers;
        if (claimed.held.length > 0) {
          const held = new Set(claimed.held);
          for (const item of claimed.held) results[item.index] = answerFor(item, answers.get(item.key!)!);
          rows = rows.filter((item) => !held.has(item));
        }
      }
      if (uniqueEventId) {
        const claimed = await claimEventIds(tx, rows, new Date(now.getTime() + config.EVENT_ID_TTL));
        refuse(claimed.refused);
        rows = claimed.rows;
      }
      if (rows.length === 0) return;
      const lines = lined ? await placeMessagesInLines(tx, rows) : undefined;
      // One wake-up for the whole call, however many messages it holds.
      await Promise.all([writeMessages(tx, rows, { ...writeOptions, lines }), wakeUp !== "after-commit" && dueNow(rows) ? wakeInTransaction(tx, wakeUp, firstAttemptAt) : null]);
      written = rows;
    });
  }
  if (wakeUp === "after-commit" && dueNow(written)) wakeAfterCommit(ctx.sql);

  for (const row of written) results[row.index] = { message: row.message, replayed: false };
  for (const item of repeats) results[item.index] = answerFor(item, answers.get(item.key!)!);
  return results as IngestResult[];
}

/**
 * The messages' deliveries to ordered endpoints placed in their lines, in the order of the call:
 * each line locked until this transaction ends, a message held when its line already has one
 * waiting or in flight (lib/deliveries/lines.sql).
 */
async function placeMessagesInLines(tx: SqlOrTx, rows: PreparedMessage[]): Promise<Map<string, LinePlace>> {
  const wanted = rows.flatMap((r) =>
    r.lineKeys ? r.endpointIds.flatMap((endpointId, n) => (r.lineKeys![n] === null ? [] : [{ endpointId, key: r.lineKeys![n]!, messageId: r.message.id }])) : [],
  );
  const placed = await placeInLines(tx, wanted, QUEUE_KINDS.scheduled);
  return new Map(placed.map((p) => [placeOf(p.messageId, p.endpointId), { key: p.key, seq: p.seq, held: p.held }]));
}

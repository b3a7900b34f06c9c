import type { Ctx } from "../context";
import { ValidationError, zodFieldErrors, type AppError } from "../errors";
import { recordMessagesIngested } from "../metrics/web";
import { ingestMessages, type IngestItem } from "./create-message";
import { BatchMessageInput, type MessageBatchItemResult, type MessageBatchResult } from "./schemas";

const refused = (error: AppError): MessageBatchItemResult => ({
  status: error.status,
  error: { code: error.code, detail: error.message, ...(error.errors ? { errors: error.errors } : {}) },
});

/**
 * POST /messages/batch and the CLI's send-batch: up to 100 messages, each checked on its own
 * (BatchMessageInput, then what ingest checks), the valid ones written in one transaction with one
 * wake-up. Each gets its own answer, in the order given; an invalid one changes nothing.
 */
export async function createMessageBatch({ ctx, messages }: { ctx: Ctx; messages: unknown[] }): Promise<MessageBatchResult> {
  const data: (MessageBatchItemResult | undefined)[] = new Array(messages.length);
  const items: (IngestItem & { at: number })[] = [];
  messages.forEach((raw, at) => {
    const parsed = BatchMessageInput.safeParse(raw);
    if (!parsed.success) {
      data[at] = refused(new ValidationError("The message is invalid.", zodFieldErrors(parsed.error)));
      return;
    }
    const { idempotency_key: idempotencyKey, ...input } = parsed.data;
    items.push({ at, input, idempotencyKey });
  });
  if (items.length > 0) {
    const outcomes = await ingestMessages({ ctx, items });
    let created = 0;
    outcomes.forEach((outcome, i) => {
      const at = items[i]!.at;
      if ("error" in outcome) {
        data[at] = refused(outcome.error);
        return;
      }
      if (!outcome.replayed) created += 1;
      data[at] = { status: 202, message: outcome.message, ...(outcome.replayed ? { replayed: true as const } : {}) };
    });
    if (created > 0) recordMessagesIngested(created);
  }
  return { data: data as MessageBatchItemResult[] };
}

import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import type { Ctx } from "../lib/context";
import { MAX_BATCH_MESSAGES, createMessageBatch } from "../lib/messages";

export type SendBatchSummary = { lines: number; accepted: number; replayed: number; failed: number };

type Line = { number: number; value: unknown } | { number: number; invalid: string };

/**
 * `npm run cli -- messages send-batch FILE.jsonl`, for back-fills: one message per line (what POST
 * /messages/batch takes per item, `idempotency_key` included), sent 100 at a time through the same
 * verb as the route. A line that fails (not JSON, invalid, unknown consumer…) is reported with its
 * number and the rest go on; lines with an idempotency_key make a rerun after an interruption safe.
 */
export async function sendBatchFile({ ctx, file, out, err }: { ctx: Ctx; file: string; out: (line: string) => void; err: (line: string) => void }): Promise<SendBatchSummary> {
  const summary: SendBatchSummary = { lines: 0, accepted: 0, replayed: 0, failed: 0 };
  const fail = (number: number, reason: string) => {
    summary.failed += 1;
    err(`line ${number}: ${reason}`);
  };

  async function send(batch: Line[]) {
    const sendable = batch.filter((line): line is { number: number; value: unknown } => "value" in line);
    for (const line of batch) if ("invalid" in line) fail(line.number, line.invalid);
    if (sendable.length > 0) {
      const { data } = await createMessageBatch({ ctx, messages: sendable.map((line) => line.value) });
      data.forEach((result, i) => {
        const number = sendable[i]!.number;
        if ("error" in result) {
          const fields = result.error.errors?.map((e) => `${e.path}: ${e.message}`).join("; ");
          return fail(number, `${result.status} ${result.error.code}: ${result.error.detail}${fields ? ` (${fields})` : ""}`);
        }
        summary.accepted += 1;
        if (result.replayed) summary.replayed += 1;
      });
    }
    summary.lines += batch.length;
    out(`${summary.lines} lines sent: ${summary.accepted} accepted (${summary.replayed} replayed), ${summary.failed} failed`);
  }

  const reader = createInterface({ input: createReadStream(file, { encoding: "utf8" }), crlfDelay: Infinity });
  let batch: Line[] = [];
  let number = 0;
  for await (const text of reader) {
    number += 1;
    if (text.trim() === "") continue;
    try {
      batch.push({ number, value: JSON.parse(text) });
    } catch {
      batch.push({ number, invalid: "invalid_json: the line is not a JSON value" });
    }
    if (batch.length === MAX_BATCH_MESSAGES) {
      await send(batch);
      batch = [];
    }
  }
  if (batch.length > 0) await send(batch);
  return summary;
}

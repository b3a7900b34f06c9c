import { z } from "zod";
import type { Ctx } from "../context";
import { expungeAttemptResponse } from "../attempts/expunge-response";
import { ConflictError } from "../errors";
import { findMessageRow } from "../messages";
import { expungePayload, expungePayloads } from "../retention/expunge-payload";
import { startPayloadPurge } from "../retention/purge-payloads";
import { appOf } from "./endpoints";

/**
 * Svix's content expunges over ours (lib/retention/expunge-payload.ts): a message's payload, many
 * messages' payloads, all of an application's (a background task), an attempt's response body.
 * Expunging again what is gone already is no error, as in Svix.
 */

/** message.expungeContent: DELETE /app/{app}/msg/{msg}/content. */
export async function expungeSvixMessageContent(ctx: Ctx, appRef: string, msgRef: string): Promise<void> {
  const app = await appOf(ctx, appRef);
  const message = await findMessageRow(ctx, msgRef, { consumerId: app.id, content: false });
  try {
    await expungePayload({ ctx, messageId: message.id });
  } catch (error) {
    if (!(error instanceof ConflictError && error.code === "payload_expunged")) throw error;
  }
}

/** At most this many ids in one bulk expunge (Svix sets none; one transaction holds them all). */
export const BULK_EXPUNGE_MAX = 1_000;

const MessageRef = z.string().min(1).max(256).regex(/^[a-zA-Z0-9\-_.]+$/, "letters, digits, '-', '_' and '.'");
export const BulkExpungeContentsIn = z.object({ ids: z.array(MessageRef).max(BULK_EXPUNGE_MAX).default([]) });
export const BulkExpungeContentsOut = z.object({ results: z.record(z.string(), z.enum(["expunged", "not-found"])) });
export type BulkExpungeContentsOut = z.infer<typeof BulkExpungeContentsOut>;

/** message.bulkExpungeContent: each id (or eventId) `expunged` or `not-found`, in one transaction. */
export async function bulkExpungeSvixContents(ctx: Ctx, appRef: string, input: z.infer<typeof BulkExpungeContentsIn>): Promise<BulkExpungeContentsOut> {
  const app = await appOf(ctx, appRef);
  const results = await expungePayloads({ ctx, consumerId: app.id, refs: [...new Set(input.ids)] });
  return { results: Object.fromEntries(results) };
}

export const ExpungeAllContentsOut = z.object({
  id: z.string(),
  // Svix's BackgroundTaskStatus; a purge only just begun is never `failed` yet.
  status: z.enum(["running", "finished", "failed"]),
  task: z.literal("application.purge_content"),
  updatedAt: z.string(),
});

/** message.expungeAllContents: a background task; a small application's is finished when this answers. */
export async function expungeAllSvixContents(ctx: Ctx, appRef: string): Promise<z.infer<typeof ExpungeAllContentsOut>> {
  const app = await appOf(ctx, appRef);
  const purge = await startPayloadPurge({ ctx, consumerId: app.id });
  return { id: purge.id, status: purge.status, task: "application.purge_content", updatedAt: purge.updatedAt.toISOString() };
}

/** messageAttempt.expungeContent: DELETE /app/{app}/msg/{msg}/attempt/{attempt}/content. */
export async function expungeSvixAttemptContent(ctx: Ctx, appRef: string, msgRef: string, attemptId: string): Promise<void> {
  const app = await appOf(ctx, appRef);
  const message = await findMessageRow(ctx, msgRef, { consumerId: app.id, content: false });
  await expungeAttemptResponse({ ctx, messageId: message.id, attemptId });
}

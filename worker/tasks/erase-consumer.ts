import { z } from "zod";
import { TASKS, wakeErasure } from "../../lib/jobs";
import { systemCtx } from "../../lib/open-ctx";
import { eraseConsumer as erase } from "../../lib/retention/erase-consumer";
import { defineJob } from "../define-job";
import { workerState } from "../state";

// A job erases for this long, then hands over to its successor: a worker stopping waits for at
// most one slice, and other jobs get their turn.
const SLICE_MS = 10_000;

/**
 * One slice of a consumer's background erasure (lib/retention/erase-consumer.ts): batches until it
 * is done or the slice is over, then its successor — at once, or when the attempts in flight at its
 * start can no longer write.
 */
export const eraseConsumer = defineJob({ name: TASKS.eraseConsumer, schema: z.object({ erasure_id: z.string() }), run: async ({ erasure_id: erasureId }) => {
  const ctx = systemCtx();
  const deadline = Date.now() + SLICE_MS;
  const result = await erase(ctx, { erasureId, deadline: workerState.stopping ? Date.now() : deadline });
  if (result.state === "running") await wakeErasure(ctx.sql, erasureId, result.wakeAt);
} });

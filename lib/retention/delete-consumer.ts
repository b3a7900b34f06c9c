import type { Ctx } from "../context";
import { wakeErasure } from "../jobs";
import { logger } from "../logger";
import { eraseConsumer } from "./erase-consumer";
import { getErasure } from "./queries";
import type { Erasure } from "./schemas";
import { startErasure } from "./start-erasure";

/**
 * Deletes the consumer and erases everything of it (lib/retention): it is gone from every read at
 * once; its rows are erased here when it is small (at most ERASURE_INLINE_MESSAGES messages, no
 * attempt in flight: `done`, a 204), else by the worker (a 202 pointing at the erasure). An erasure
 * that fails here is handed to the worker too: the consumer is already gone for every reader.
 */
export async function deleteConsumer({ ctx, ref }: { ctx: Ctx; ref: string }): Promise<{ erasure: Erasure; done: boolean }> {
  const { erasure, inline } = await startErasure({ ctx, ref });
  if (inline) {
    try {
      const result = await eraseConsumer(ctx, { erasureId: erasure.id });
      if (result.state === "completed") return { erasure: await getErasure(ctx, erasure.id), done: true };
      await wakeErasure(ctx.sql, erasure.id, result.wakeAt);
    } catch (error) {
      logger.warn("erasing a consumer within its request failed; the worker goes on with it", { erasure: erasure.id, error: String(error) });
      await wakeErasure(ctx.sql, erasure.id);
    }
  }
  return { erasure: await getErasure(ctx, erasure.id), done: false };
}

import type { Ctx } from "../context";
import { moveRecovery, pullBackQueued } from "./transition";

/** Stops feeding a run and takes back what it queued but has not sent; resume goes on from there. */
export function pauseRecovery(ctx: Ctx, id: string) {
  return moveRecovery(ctx, id, {
    done: "paused",
    from: ["planned", "canary", "running"],
    apply: async (tx) => {
      await pullBackQueued(tx, id);
      await tx`update recoveries set state = 'paused', stop_reason = null, updated_at = now() where id = ${id}`;
    },
  });
}

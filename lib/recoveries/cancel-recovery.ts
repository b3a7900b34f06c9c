import type { Ctx } from "../context";
import { moveRecovery, pullBackQueued } from "./transition";

/** Ends a run for good. Items never sent stay `pending` in its report; an attempt in flight is recorded. */
export function cancelRecovery(ctx: Ctx, id: string) {
  return moveRecovery(ctx, id, {
    done: "canceled",
    from: ["planned", "canary", "running", "paused"],
    apply: async (tx) => {
      await pullBackQueued(tx, id);
      await tx`update recoveries set state = 'canceled', finished_at = now(), updated_at = now() where id = ${id}`;
    },
  });
}

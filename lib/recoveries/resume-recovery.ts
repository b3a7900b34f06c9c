import type { Ctx } from "../context";
import { wakeRecoveries } from "../jobs";
import { moveRecovery } from "./transition";

/**
 * Goes on with a paused run, whether a person paused it or it stopped itself: as a running run
 * whose rate ramps up again from an eighth, and whose failure window starts empty.
 */
export function resumeRecovery(ctx: Ctx, id: string) {
  return moveRecovery(ctx, id, {
    done: "resumed",
    from: ["paused"],
    apply: async (tx) => {
      await tx`
        update recoveries set state = 'running', stop_reason = null, recent = '', tokens = 0, tokens_at = now(),
          ramp_started_at = now(), started_at = coalesce(started_at, now()), updated_at = now()
        where id = ${id}`;
      await wakeRecoveries(tx);
    },
  });
}

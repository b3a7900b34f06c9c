import type { Ctx } from "../context";
import { wakeRecoveries } from "../jobs";
import { moveRecovery } from "./transition";

/**
 * Goes on with a paused run, whether a person paused it or it stopped itself: as a running run
 * whose rate ramps up again from an eighth, and whose failure window starts empty.
 */
export function resumeRecovery({ ctx, id }: { ctx: Ctx; id: string }) {
  return moveRecovery({ ctx, id, move: "resume", done: "resumed", after: (tx) => wakeRecoveries(tx) });
}

import type { Ctx } from "../context";
import { moveRecovery, pullBackQueued } from "./transition";

/** Stops feeding a run and takes back what it queued but has not sent; resume goes on from there. */
export function pauseRecovery({ ctx, id }: { ctx: Ctx; id: string }) {
  return moveRecovery({ ctx, id, move: "pause", done: "paused", before: (tx) => pullBackQueued(tx, id) });
}

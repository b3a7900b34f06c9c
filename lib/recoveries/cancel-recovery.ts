import type { Ctx } from "../context";
import { moveRecovery, pullBackQueued } from "./transition";

/** Ends a run for good. Items never sent stay `pending` in its report; an attempt in flight is recorded. */
export function cancelRecovery({ ctx, id }: { ctx: Ctx; id: string }) {
  return moveRecovery({ ctx, id, move: "cancel", done: "canceled", before: (tx) => pullBackQueued(tx, id) });
}

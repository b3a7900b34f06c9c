import type { Counts } from "./counts";
import { addCounts } from "./counts";

/**
 * Runs `batch` — one bounded removal, in a short transaction of its own — until a batch finds
 * fewer rows than its size (nothing is left) or `deadline` (ms since the epoch) has passed: no
 * statement holds its locks for long, and a sweep with a large backlog stops at its time budget
 * and leaves the rest to the next one. `batch` returns the rows it looked at (to compare with the
 * size) and what it removed.
 */
export async function drain(
  batch: () => Promise<{ seen: number; removed: Counts }>,
  size: number,
  deadline: number,
): Promise<{ removed: Counts; more: boolean }> {
  const removed: Counts = {};
  for (;;) {
    const done = await batch();
    addCounts(removed, done.removed);
    if (done.seen < size) return { removed, more: false };
    if (Date.now() >= deadline) return { removed, more: true };
  }
}

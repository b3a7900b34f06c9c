import os from "node:os";

/**
 * Asks the OS to run these processes ahead of the machine's other work, where it lets us (root, or
 * CAP_SYS_NICE; elsewhere nothing changes). For tests that measure pacing at a receiver: the product
 * spaces its sends by the database's clock, and on a loaded 2-core machine a sender or a receiver
 * waiting hundreds of milliseconds for a core bunches what left evenly, which says nothing of the
 * product.
 */
export function favourScheduling(...pids: number[]): void {
  for (const pid of pids) {
    try {
      os.setPriority(pid, -10);
    } catch {
      // Not permitted here: the test runs at the ordinary priority.
    }
  }
}

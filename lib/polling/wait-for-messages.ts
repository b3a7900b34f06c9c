import type { Sql, SqlOrTx } from "../db/client";
import { WAKE_CHANNEL } from "../jobs";

/**
 * Long-polls wait for the wake-up ingest sends after writing messages (lib/messages/wake-workers.ts,
 * the workers' NOTIFY on WAKE_CHANNEL: ADR 0003), heard by one LISTEN per pool in this process —
 * postgres.js gives it a connection of its own, outside the pool's `max`, so a waiting poll holds
 * no pooled connection however many wait. Any wake-up wakes every waiter, which looks again: a
 * look is one index range read, and most wake-ups are for messages someone is waiting for.
 */
const waiters = new Set<() => void>();
const listening = new WeakMap<object, Promise<unknown>>();

function wakeAll(): void {
  for (const wake of [...waiters]) wake();
}

/** A wait, armed before the caller looks for messages so that no wake-up in between is missed. */
export type Wait = { until(deadline: number, signal?: AbortSignal): Promise<void>; close(): void };

export async function armWait(sql: SqlOrTx): Promise<Wait> {
  let woken = false;
  let resolve: (() => void) | null = null;
  const wake = () => {
    woken = true;
    resolve?.();
  };
  waiters.add(wake);
  if ("listen" in sql) {
    let started = listening.get(sql);
    if (!started) {
      started = (sql as Sql).listen(WAKE_CHANNEL, wakeAll);
      listening.set(sql, started);
      // The next waiter tries again; this one still ends at its deadline.
      started.catch(() => listening.delete(sql));
    }
    await started.catch(() => {});
  }
  return {
    /** Resolves when woken since armed (or since the last wait), at the deadline, or when `signal` aborts. */
    until(deadline, signal) {
      if (woken || signal?.aborted) {
        woken = false;
        return Promise.resolve();
      }
      return new Promise<void>((done) => {
        const timer = setTimeout(finish, Math.max(0, deadline - Date.now()));
        signal?.addEventListener("abort", finish, { once: true });
        function finish() {
          clearTimeout(timer);
          signal?.removeEventListener("abort", finish);
          resolve = null;
          woken = false;
          done();
        }
        resolve = finish;
      });
    },
    close() {
      waiters.delete(wake);
    },
  };
}

/** How many long-polls wait in this process. */
export const waitingPolls = (): number => waiters.size;

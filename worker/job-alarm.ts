import type { WorkerPool } from "graphile-worker";
import type { Sql } from "../lib/db/client";
import { logger } from "../lib/logger";

/**
 * graphile-worker 0.17 hears of a new job by LISTEN/NOTIFY ("jobs:insert", sent when the job is
 * added), but a job whose run_at is still ahead then — a retry's wake-up, a lease's end, an alert's
 * next try — it finds only by polling, and each of its WORKER_CONCURRENCY workers polls on its
 * own: 50 workers at 250 ms made 200 queries a second on an idle system, and a longer interval
 * would make such jobs late. Instead this process keeps one timer for the earliest future job and
 * nudges its idle workers when that comes due, so graphile's own poll is only a last resort. Every
 * SAFETY_MS it also looks for due work nothing announced (a job released from a dead worker, a
 * graphile retry after a failure): one query, whatever the concurrency.
 */
const SAFETY_MS = 5_000;
// Notifications come in bursts under load: one look per gap covers a burst.
const MIN_GAP_MS = 50;

export class JobAlarm {
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;
  private looking = false;
  private again = false;
  private lastLook = 0;
  private stopped = false;
  private unlisten: (() => Promise<void>) | undefined;

  constructor(
    private readonly sql: Sql,
    private readonly pool: WorkerPool,
  ) {}

  /** Listens for new jobs; every (re)connection looks at once: jobs may have come due unheard. */
  async start(): Promise<void> {
    const subscription = await this.sql.listen("jobs:insert", () => this.soon(), () => void this.look());
    this.unlisten = () => subscription.unlisten();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.unlisten?.();
  }

  /** A job was added (here or by any process), or will be in `afterMs`: look then, at most once per MIN_GAP_MS. */
  soon(afterMs = 0): void {
    if (this.looking && afterMs === 0) this.again = true;
    else this.armAt(Math.max(this.lastLook + MIN_GAP_MS, Date.now() + afterMs), false);
  }

  private armAt(at: number, replace: boolean): void {
    if (this.stopped || (!replace && this.timerAt <= at)) return;
    clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => {
      this.timerAt = Infinity;
      void this.look();
    }, Math.max(0, at - Date.now()));
  }

  private async look(): Promise<void> {
    if (this.stopped) return;
    if (this.looking) {
      this.again = true;
      return;
    }
    this.looking = true;
    this.lastLook = Date.now();
    let next = SAFETY_MS;
    try {
      // The database's clock decides when a job is due, so the wait is measured on it too.
      const [row] = await this.sql<{ due: number; next_in_ms: number | null }[]>`
        select count(*) filter (where run_at <= now())::int as due,
               extract(epoch from min(run_at) filter (where run_at > now()) - now())::float8 * 1000 as next_in_ms
        from graphile_worker.jobs where locked_at is null and attempts < max_attempts`;
      // Only idle workers take a nudge; busy ones take the next job as they finish anyway.
      if (row!.due > 0 && !this.stopped) {
        try {
          this.pool.nudge(row!.due);
        } catch {
          // The pool is shutting down: nothing to wake.
        }
      }
      // A millisecond late rather than early: looking early would find the job not yet due.
      if (row!.next_in_ms !== null) next = Math.min(SAFETY_MS, Math.ceil(row!.next_in_ms) + 1);
    } catch (error) {
      logger.warn("job alarm: could not read when the next job is due", { error: String(error) });
    } finally {
      this.looking = false;
    }
    this.armAt(Date.now() + next, true);
    if (this.again) {
      this.again = false;
      this.armAt(this.lastLook + MIN_GAP_MS, false);
    }
  }
}

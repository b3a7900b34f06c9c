import type { Config } from "../config";
import type { Sql } from "../db/client";
import type { QueueKind } from "../db/schema/messages";
import { isConnectionError, isRetryableConflict } from "../db/errors";
import { alertFailingEndpoints } from "../endpoints/alert-failing";
import { autoDisableFailingEndpoints } from "../endpoints/auto-disable";
import { logger } from "../logger";
import { outcomesInSpan } from "../telemetry/delivery-spans";
import { recordOutcomes, type AttemptOutcome, type HealthPolicy } from "./record-outcomes";

type Waiting = { outcome: AttemptOutcome; done: () => void };
/** One line of writes: its queue, and whether a write of it is in flight. */
type Stream = { queue: Waiting[]; writing: number };

// More rows per transaction stop paying for themselves and hold endpoint row locks longer.
const MAX_ROWS_PER_WRITE = 500;
// One write in flight per stream: the next group forms while it runs. Two side by side contended on
// the same endpoint rows with each other and with the claim (which skips an endpoint an outcome write
// holds): one delivers more attempts a second for less CPU an attempt, and frees a busy endpoint's
// slots sooner (measured in bench/results/2026-12-03-b5-issue-22-second-cut.md, "one outcome write
// in flight", and in its b6).
const MAX_CONCURRENT_WRITES = 1;

/**
 * Group commit for attempt outcomes. Each outcome is written as soon as its attempt finishes,
 * together with whatever else finished meanwhile, so a delivery's slot at its endpoint frees when
 * its own POST ends — not when the slowest POST claimed beside it does. (Writing a claimed batch
 * only when all of it finished let one hung endpoint hold a healthy endpoint's slots for the whole
 * delivery timeout.) Under load the groups grow by themselves: while one write runs, the next fills.
 *
 * Live outcomes (scheduled, probe, manual) and recovery items' are written in two streams, side by
 * side, so a live outcome never waits for a recovery's. A recovery item's outcome locks its run's row
 * (outcomes/complete-requested.ts), which the run's feeder holds while it picks and queues the next
 * items: 100–400 ms a time beside a run at 1,000 a second. With every outcome in one stream, each
 * such wait held up every live outcome behind it — their endpoint slots and the worker's room for
 * attempts with them — and live messages through the endpoint being recovered waited parked for a
 * slot for 1.6 s (bench part e, 2026-12-07).
 */
export class OutcomeWriter {
  private readonly live: Stream = { queue: [], writing: 0 };
  private readonly recovery: Stream = { queue: [], writing: 0 };
  private idle: (() => void)[] = [];
  // Endpoints whose outcomes included failures, for the follow-ups (alerts, auto-disable): run one
  // at a time beside the writes, not in a write's slot — with one write in flight, two more
  // transactions there would hold up every outcome behind a failing endpoint's.
  private failing = new Set<string>();
  private followingUp = false;

  constructor(
    private readonly sql: Sql,
    private readonly config: Config,
    private readonly health: HealthPolicy,
    /** Parked deliveries (of these kinds) were given slots and are due now: something must claim them. */
    private readonly onUnparked: (kinds: QueueKind[]) => void,
  ) {}

  /** Resolves once the outcome is committed (or given up on: its lease then brings it back). */
  write(outcome: AttemptOutcome): Promise<void> {
    const stream = outcome.trigger === "recovery" ? this.recovery : this.live;
    return new Promise((done) => {
      stream.queue.push({ outcome, done });
      this.kick(stream);
    });
  }

  /** Resolves when every outcome handed in so far is written. */
  drained(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private isIdle(): boolean {
    const still = (stream: Stream) => stream.queue.length > 0 || stream.writing > 0;
    return !still(this.live) && !still(this.recovery) && !this.followingUp;
  }

  private settle(): void {
    if (this.isIdle()) for (const resolve of this.idle.splice(0)) resolve();
  }

  private kick(stream: Stream): void {
    while (stream.writing < MAX_CONCURRENT_WRITES && stream.queue.length > 0) {
      const group = stream.queue.splice(0, MAX_ROWS_PER_WRITE);
      stream.writing += 1;
      void this.writeGroup(group).finally(() => {
        stream.writing -= 1;
        for (const w of group) w.done();
        this.kick(stream);
        this.followUp();
        this.settle();
      });
    }
  }

  private async writeGroup(group: Waiting[]): Promise<void> {
    const outcomes = group.map((w) => w.outcome);
    // A database outage is waited out for as long as the leases last; after that the deliveries
    // are due again anyway and the attempts are made afresh.
    const giveUpAt = Date.now() + this.config.DELIVERY_TIMEOUT + 10_000;
    for (let attempt = 1; ; attempt++) {
      try {
        const { unparked } = await outcomesInSpan(outcomes, () => recordOutcomes(this.sql, { outcomes, health: this.health }));
        if (unparked.length > 0) this.onUnparked(unparked);
        break;
      } catch (error) {
        if (!(isConnectionError(error) || isRetryableConflict(error)) || Date.now() > giveUpAt) {
          logger.error("attempt outcomes not written; the deliveries come due again when their lease ends", {
            attempts: outcomes.length,
            error: String(error),
          });
          return;
        }
        await new Promise((r) => setTimeout(r, Math.min(2000, 100 * attempt)));
      }
    }
    for (const o of outcomes) if (!o.success) this.failing.add(o.endpointId);
  }

  // Follow-ups are re-done by the minute sweep if they fail (it raises endpoint.failing and
  // auto-disables), so a failure here is logged, not retried — retrying the write for them would
  // count the endpoint's failures twice. The endpoints of every write since the last run go together.
  private followUp(): void {
    if (this.followingUp || this.failing.size === 0) return;
    const endpointIds = [...this.failing];
    this.failing.clear();
    this.followingUp = true;
    const step = (what: string, fn: () => Promise<unknown>) =>
      fn().catch((error: unknown) => logger.warn(`${what} after writing outcomes failed; the sweep will catch up`, { error: String(error) }));
    void step("failing-alert", () => alertFailingEndpoints(this.sql, { failingAfterMs: this.config.ALERT_FAILING_AFTER, endpointIds }))
      .then(() => step("auto-disable", () => autoDisableFailingEndpoints(this.sql, { disableAfterMs: this.config.ENDPOINT_DISABLE_AFTER, endpointIds })))
      .finally(() => {
        this.followingUp = false;
        this.followUp();
        this.settle();
      });
  }
}

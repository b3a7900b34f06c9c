import type { Config } from "../lib/config";
import { decryptionKeys } from "../lib/crypto/encryption";
import type { Sql } from "../lib/db/client";
import { attemptDelivery } from "../lib/deliveries/attempt-delivery";
import { claimDueDeliveries, triggerOf, type ClaimedDelivery } from "../lib/deliveries/claim-due-deliveries";
import { readIngestTraceparents } from "../lib/deliveries/ingest-traces";
import { OutcomeWriter } from "../lib/deliveries/outcome-writer";
import { releaseLeases } from "../lib/deliveries/release-leases";
import { QUEUE_KINDS, type QueueKind } from "../lib/db/schema/messages";
import { wakeDeliveries } from "../lib/jobs";
import type { HealthPolicy } from "../lib/deliveries/record-outcomes";
import { logger } from "../lib/logger";
import { observeClaim, recordAttempt, recordAttemptStart, recordLateRecoveryItems } from "../lib/metrics/worker";
import { attemptInSpan, claimInSpan } from "../lib/telemetry/delivery-spans";
import { urlPolicy } from "../lib/webhooks/policy";

/** The usual round trip: the quickest of this many recent claims that leased something (an empty
 * claim ends early, and would make every claim that does its work look late). */
const ROUND_TRIPS_KEPT = 32;

/** The quickest of the lane's recent claims' round trips, this one's included. */
function usualRoundTrip(lane: Lane, latest: number): number {
  lane.roundTrips.push(latest);
  if (lane.roundTrips.length > ROUND_TRIPS_KEPT) lane.roundTrips.shift();
  return Math.min(...lane.roundTrips);
}

export function healthPolicy(config: Config): HealthPolicy {
  return {
    failureThreshold: config.CIRCUIT_FAILURE_THRESHOLD,
    openForMs: config.CIRCUIT_OPEN_FOR,
    defaultConcurrency: config.ENDPOINT_MAX_CONCURRENCY,
  };
}

/** How long a claimed delivery is held: the whole attempt's deadline plus room to write the outcome. */
export function leaseMs(config: Config): number {
  return config.DELIVERY_TIMEOUT + 15_000;
}

/**
 * One line of claims: the queue kinds it serves, and its run of claims (one claim at a time).
 * `roundTrips`: its recent claims' round trips, for the late-start check.
 */
type Lane = {
  kinds: readonly QueueKind[];
  run: Promise<void> | null;
  again: boolean;
  roundTrips: number[];
  live: boolean;
  /** The least time between the starts of two claims (ms), and when the last one started. */
  gapMs: number;
  lastClaimAt: number;
};

/**
 * The recovery lane claims at most once in this many milliseconds. Slots free one outcome at a
 * time, and unpaced its claims followed them: 80 a second, ten items each, every one scanning and
 * parking a window of 200 rows, so PostgreSQL's core went to parking recovery items and live
 * traffic waited for it (bench part e, 2026-12-07). Paced, a claim takes what 50 ms of outcomes
 * freed — still a run's 1,000 a second — for a fraction of the work.
 */
const RECOVERY_CLAIM_GAP_MS = 50;

/**
 * A worker process's delivery pipeline: claims due deliveries in batches, sends each at once to its
 * destination (no database connection is held while waiting on receivers) and hands every outcome
 * to the group-commit writer as soon as its own send ends. A claim does not wait for the previous batch to
 * finish, only for room under DELIVERY_MAX_IN_FLIGHT, so a hung endpoint holds only its own slots.
 *
 * Live traffic and recovery items are claimed in two lanes that run side by side. In one lane, a
 * new message waited for whatever claim was running: beside a recovery at 1,000 items a second,
 * claims ran back to back at 25 ms each (bench part e, 2026-12-07), and every live message waited
 * out one, then its own. The recovery lane also leaves a tenth of DELIVERY_MAX_IN_FLIGHT to live
 * traffic, as the claim leaves it slots at each endpoint it uses: a run's items take only the room
 * live traffic leaves.
 */
export class DeliveryPump {
  /** `late`: recovery items given back for starting too long after their claim. */
  readonly counters = { batches: 0, succeeded: 0, failed: 0, resends: 0, late: 0 };
  private inFlight = 0;
  private roomWaiters: (() => void)[] = [];
  private readonly writer: OutcomeWriter;
  private stopping = false;
  private readonly lanes: Lane[] = [
    { kinds: [QUEUE_KINDS.scheduled, QUEUE_KINDS.manual], run: null, again: false, roundTrips: [], live: true, gapMs: 0, lastClaimAt: 0 },
    { kinds: [QUEUE_KINDS.recovery], run: null, again: false, roundTrips: [], live: false, gapMs: RECOVERY_CLAIM_GAP_MS, lastClaimAt: 0 },
  ];

  constructor(
    private readonly sql: Sql,
    private readonly config: Config,
  ) {
    // Only the lanes of the rows given a slot: every recovery outcome frees one for the run's next
    // item, and waking the live lane for it too made an empty claim of every outcome write.
    this.writer = new OutcomeWriter(sql, config, healthPolicy(config), (kinds) => this.wake(kinds));
  }

  /** Stops claiming; attempts already started go on (see drain). */
  stop(): void {
    this.stopping = true;
  }

  /**
   * Due work appeared — ingest's NOTIFY, slots freed by outcomes written here, a wake-up job: claim
   * here and now, in the lanes serving `kinds` (all when not known), batch after batch for as long
   * as due work remains. Going through a graphile job instead would put its round trip between the
   * news and the claim: for every message when idle, for every outcome of an endpoint working
   * through a backlog at its cap, for every batch of a backlog. A wake during a lane's run makes it
   * claim once more, since its last claim may have missed the news. (With no recovery running, the
   * recovery lane's claim finds nothing due in one index descent.)
   */
  wake(kinds?: readonly QueueKind[]): void {
    if (this.stopping) {
      // Another worker process takes it.
      void wakeDeliveries(this.sql).catch((error: unknown) => logger.warn("wake-up failed; the sweep will catch up", { error: String(error) }));
      return;
    }
    for (const lane of this.lanes) if (!kinds || lane.kinds.some((kind) => kinds.includes(kind))) this.wakeLane(lane);
  }

  private wakeLane(lane: Lane): void {
    if (lane.run) {
      lane.again = true;
      return;
    }
    lane.run = (async () => {
      do {
        lane.again = false;
        while (!this.stopping && (await this.claimBatch(lane)));
      } while (lane.again && !this.stopping);
    })()
      .catch((error: unknown) => {
        logger.warn("claiming due work failed; a wake-up job tries again", { error: String(error) });
        void wakeDeliveries(this.sql, Date.now() + 1000).catch(() => {});
      })
      .finally(() => {
        lane.run = null;
        // A wake that came after the loop's last check but before this point.
        if (lane.again) {
          if (this.stopping) this.wake();
          else this.wakeLane(lane);
        }
      });
  }

  /**
   * Claims one batch of the lane's kinds and starts its attempts; true when due work may remain (a
   * full batch, or due deliveries left to other claims), and the claim has then also notified the
   * other worker processes, so a backlog fans out over them. Only the lane's single run calls this,
   * so a lane's claims go one at a time per process: concurrent claims of the same work in one
   * process only split the due endpoints between them (each skips what the other has locked), so
   * batches came back part-empty or empty (ADR 0006).
   */
  private async claimBatch(lane: Lane): Promise<boolean> {
    const { config, sql } = this;
    const wait = lane.lastClaimAt + lane.gapMs - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const limit = await this.reserve(config.DELIVERY_BATCH_SIZE, lane);
    if (this.stopping) {
      this.release(limit);
      return false;
    }
    // Before the claim is sent: no later than the moment its sends are logged.
    const claimedAt = performance.now();
    lane.lastClaimAt = claimedAt;
    const claim = await observeClaim(
      claimInSpan(
        () =>
          claimDueDeliveries(sql, {
            limit,
            leaseMs: leaseMs(config),
            defaultConcurrency: config.ENDPOINT_MAX_CONCURRENCY,
            keys: decryptionKeys(config),
            kinds: lane.kinds,
          }),
        (messageIds) => readIngestTraceparents(sql, messageIds),
      ),
    ).catch(
      (error: unknown) => {
        this.release(limit);
        throw error;
      },
    );
    this.release(limit - claim.deliveries.length);
    const { token, deliveries, more } = claim;
    // Nothing of our own to send: whoever holds the skipped endpoints carries on with them.
    if (deliveries.length === 0) return false;
    const usual = usualRoundTrip(lane, performance.now() - claimedAt);
    this.counters.batches += 1;
    const policy = urlPolicy(config);
    const late: ClaimedDelivery[] = [];
    for (const delivery of deliveries) {
      // A half-open circuit's probe goes anyway: its claim held the circuit open for its lease, and
      // given back it would leave the endpoint waiting out that lease with nothing sent.
      if (delivery.kind === QUEUE_KINDS.recovery && !delivery.probe && performance.now() - claimedAt - usual > config.RECOVERY_LATE_START) {
        late.push(delivery);
        continue;
      }
      if (delivery.kind !== QUEUE_KINDS.scheduled) this.counters.resends += 1;
      recordAttemptStart(delivery);
      const trigger = triggerOf(delivery);
      void attemptInSpan(claim.trace, delivery, trigger, () => attemptDelivery({ delivery, secrets: delivery.secrets, trigger, config, policy }))
        .then((outcome) => {
          this.counters[outcome.success ? "succeeded" : "failed"] += 1;
          recordAttempt(outcome);
          logger.debug("attempt", { message_id: outcome.messageId, delivery_id: outcome.deliveryId, endpoint_id: outcome.endpointId, trigger: outcome.trigger, status_code: outcome.statusCode, error: outcome.error, duration_ms: outcome.durationMs });
          return this.writer.write({ ...outcome, leaseToken: token });
        })
        .catch((error: unknown) => logger.error("delivery attempt crashed; its lease brings it back", { delivery_id: delivery.id, message_id: delivery.message_id, endpoint_id: delivery.endpoint_id, error: String(error) }))
        .finally(() => this.release(1));
    }
    if (late.length > 0) this.giveBack(token, late);
    return more;
  }

  /** Late recovery items go back to the queue; the claim that follows parks them until their run may send again. */
  private giveBack(token: string, late: ClaimedDelivery[]): void {
    this.counters.late += late.length;
    recordLateRecoveryItems(late.length);
    logger.debug("recovery items started too late after their claim; given back", { count: late.length });
    void releaseLeases(this.sql, { token, deliveries: late, health: healthPolicy(this.config) })
      .then(() => this.wake([QUEUE_KINDS.recovery]))
      .catch((error: unknown) => logger.warn("giving back late recovery items failed; their lease brings them back", { error: String(error) }))
      .finally(() => this.release(late.length));
  }

  /** Resolves when every started attempt has finished and its outcome is written. */
  async drain(): Promise<void> {
    this.stop();
    while (this.inFlight > 0 || this.lanes.some((lane) => lane.run)) {
      await Promise.all([...this.lanes.map((lane) => lane.run), this.inFlight > 0 ? new Promise<void>((resolve) => this.roomWaiters.push(resolve)) : null]);
    }
    await this.writer.drained();
  }

  get attemptsInFlight(): number {
    return this.inFlight;
  }

  /** Room for up to `wanted` attempts; the recovery lane's room stops short of live traffic's tenth. */
  private async reserve(wanted: number, lane: Lane): Promise<number> {
    const all = this.config.DELIVERY_MAX_IN_FLIGHT;
    const max = lane.live || all < 2 ? all : all - Math.max(1, Math.floor(all / 10));
    while (this.inFlight >= max) await new Promise<void>((resolve) => this.roomWaiters.push(resolve));
    const granted = Math.min(wanted, max - this.inFlight);
    this.inFlight += granted;
    return granted;
  }

  private release(n: number): void {
    this.inFlight -= n;
    for (const resolve of this.roomWaiters.splice(0)) resolve();
  }
}

import type { Config } from "../lib/config";
import { decryptionKeys } from "../lib/crypto/encryption";
import type { Sql } from "../lib/db/client";
import { attemptDelivery } from "../lib/deliveries/attempt-delivery";
import { claimDueDeliveries, triggerOf, type ClaimedDelivery } from "../lib/deliveries/claim-due-deliveries";
import { readIngestTraceparents } from "../lib/deliveries/ingest-traces";
import { OutcomeWriter } from "../lib/deliveries/outcome-writer";
import { releaseLeases } from "../lib/deliveries/release-leases";
import { QUEUE_KINDS } from "../lib/db/schema/messages";
import { wakeDeliveries } from "../lib/jobs";
import type { HealthPolicy } from "../lib/deliveries/record-outcomes";
import { logger } from "../lib/logger";
import { observeClaim, recordAttempt, recordAttemptStart, recordLateRecoveryItems } from "../lib/metrics/worker";
import { attemptInSpan, claimInSpan } from "../lib/telemetry/delivery-spans";
import { urlPolicy } from "../lib/webhooks/policy";

/** The usual round trip: the quickest of this many recent claims that leased something (an empty
 * claim ends early, and would make every claim that does its work look late). */
const ROUND_TRIPS_KEPT = 32;

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
 * A worker process's delivery pipeline: claims due deliveries in batches, sends each at once to its
 * destination (no database connection is held while waiting on receivers) and hands every outcome
 * to the group-commit writer as soon as its own send ends. A claim does not wait for the previous batch to
 * finish, only for room under DELIVERY_MAX_IN_FLIGHT, so a hung endpoint holds only its own slots.
 */
export class DeliveryPump {
  /** `late`: recovery items given back for starting too long after their claim. */
  readonly counters = { batches: 0, succeeded: 0, failed: 0, resends: 0, late: 0 };
  private inFlight = 0;
  private roomWaiters: (() => void)[] = [];
  private readonly writer: OutcomeWriter;
  private stopping = false;
  private localRun: Promise<void> | null = null;
  private localRunAgain = false;
  private roundTrips: number[] = [];

  constructor(
    private readonly sql: Sql,
    private readonly config: Config,
  ) {
    this.writer = new OutcomeWriter(sql, config, healthPolicy(config), () => this.wake());
  }

  /** Stops claiming; attempts already started go on (see drain). */
  stop(): void {
    this.stopping = true;
  }

  /**
   * Due work appeared — ingest's NOTIFY, slots freed by outcomes written here, a wake-up job: claim
   * here and now, batch after batch for as long as due work remains. Going through a graphile job
   * instead would put its round trip between the news and the claim: for every message when idle,
   * for every outcome of an endpoint working through a backlog at its cap, for every batch of a
   * backlog. A wake during a run makes it claim once more, since its last claim may have missed
   * the news.
   */
  wake(): void {
    if (this.stopping) {
      // Another worker process takes it.
      void wakeDeliveries(this.sql).catch((error: unknown) => logger.warn("wake-up failed; the sweep will catch up", { error: String(error) }));
      return;
    }
    if (this.localRun) {
      this.localRunAgain = true;
      return;
    }
    this.localRun = (async () => {
      do {
        this.localRunAgain = false;
        while (!this.stopping && (await this.claimBatch()));
      } while (this.localRunAgain && !this.stopping);
    })()
      .catch((error: unknown) => {
        logger.warn("claiming due work failed; a wake-up job tries again", { error: String(error) });
        void wakeDeliveries(this.sql, Date.now() + 1000).catch(() => {});
      })
      .finally(() => {
        this.localRun = null;
        // A wake that came after the loop's last check but before this point.
        if (this.localRunAgain) this.wake();
      });
  }

  /**
   * Claims one batch and starts its attempts; true when due work may remain (a full batch, or due
   * deliveries left to other claims), and the claim has then also notified the other worker
   * processes, so a backlog fans out over them. Only wake's single run calls this, so claims go one
   * at a time per process: concurrent claims in one process only split the due endpoints between
   * them (each skips what the other has locked), so batches came back part-empty or empty (ADR 0006).
   */
  private async claimBatch(): Promise<boolean> {
    const { config, sql } = this;
    const limit = await this.reserve(config.DELIVERY_BATCH_SIZE);
    if (this.stopping) {
      this.release(limit);
      return false;
    }
    // Before the claim is sent: no later than the moment its sends are logged.
    const claimedAt = performance.now();
    const claim = await observeClaim(
      claimInSpan(
        () => claimDueDeliveries(sql, { limit, leaseMs: leaseMs(config), defaultConcurrency: config.ENDPOINT_MAX_CONCURRENCY, keys: decryptionKeys(config) }),
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
    const usualRoundTrip = this.usualRoundTrip(performance.now() - claimedAt);
    this.counters.batches += 1;
    const policy = urlPolicy(config);
    const late: ClaimedDelivery[] = [];
    for (const delivery of deliveries) {
      // A half-open circuit's probe goes anyway: its claim held the circuit open for its lease, and
      // given back it would leave the endpoint waiting out that lease with nothing sent.
      if (delivery.kind === QUEUE_KINDS.recovery && !delivery.probe && performance.now() - claimedAt - usualRoundTrip > config.RECOVERY_LATE_START) {
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

  /** The quickest of the recent claims' round trips, this one's included. */
  private usualRoundTrip(latest: number): number {
    this.roundTrips.push(latest);
    if (this.roundTrips.length > ROUND_TRIPS_KEPT) this.roundTrips.shift();
    return Math.min(...this.roundTrips);
  }

  /** Late recovery items go back to the queue; the claim that follows parks them until their run may send again. */
  private giveBack(token: string, late: ClaimedDelivery[]): void {
    this.counters.late += late.length;
    recordLateRecoveryItems(late.length);
    logger.debug("recovery items started too late after their claim; given back", { count: late.length });
    void releaseLeases(this.sql, { token, deliveries: late, health: healthPolicy(this.config) })
      .then(() => this.wake())
      .catch((error: unknown) => logger.warn("giving back late recovery items failed; their lease brings them back", { error: String(error) }))
      .finally(() => this.release(late.length));
  }

  /** Resolves when every started attempt has finished and its outcome is written. */
  async drain(): Promise<void> {
    this.stop();
    while (this.inFlight > 0 || this.localRun) {
      await Promise.all([this.localRun, this.inFlight > 0 ? new Promise<void>((resolve) => this.roomWaiters.push(resolve)) : null]);
    }
    await this.writer.drained();
  }

  get attemptsInFlight(): number {
    return this.inFlight;
  }

  private async reserve(wanted: number): Promise<number> {
    const max = this.config.DELIVERY_MAX_IN_FLIGHT;
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

import type { Config } from "../config";
import { newId } from "../ids";
import type { AttemptTrigger } from "../db/schema";
import type { ResolvedTarget, SendResult, Verdict } from "../destinations";
import type { EgressPolicy } from "../webhooks/egress";
import { applyRetryAfter, nextAttemptAfterFailure } from "../webhooks/schedule";
import type { AttemptOutcome } from "./record-outcomes";
import { logger } from "../logger";

export type DueDelivery = {
  id: string;
  message_id: string;
  endpoint_id: string;
  consumer_id: string;
  attempts: number;
  scheduled_attempts: number;
  created_at: Date;
  payload: string;
  /** A test send (POST /endpoints/{id}/test): marked for the receiver (`webhook-test: true` over HTTP). */
  is_test: boolean;
  /** Where it goes: its endpoint's destination and target, resolved once per endpoint by the claim. */
  route: ResolvedTarget;
};

/** An attempt that failed before or without its destination's answer: nothing to classify. */
function failed(error: string, errorDetail: string, durationMs: number): { result: SendResult; verdict: Verdict } {
  return { result: { statusCode: null, error, errorDetail, headers: {}, responseBody: "", durationMs }, verdict: { success: false, error, retryAfterMs: null } };
}

/**
 * One attempt of a delivery at its endpoint's destination — prepare, send, classify, by the
 * destination's kind (lib/destinations/) — and what it means for the delivery: a success ends it, a
 * failure is retried per the schedule (no sooner than the receiver asked). `scheduled` attempts
 * move the delivery along its schedule; manual and recovery ones do not.
 */
export async function attemptDelivery(input: {
  delivery: DueDelivery;
  /** null: the endpoint's secrets cannot be decrypted; nothing is sent unsigned, the attempt fails. */
  secrets: string[] | null;
  trigger: AttemptTrigger;
  config: Config;
  policy: EgressPolicy;
}): Promise<AttemptOutcome> {
  const { delivery, config, trigger } = input;
  const { route } = delivery;
  const started = performance.now();
  let loggedHeaders: Record<string, string> = {};
  let attempt: { result: SendResult; verdict: Verdict };
  // Total: whatever an endpoint's target, DNS, TLS or answer make a step throw is this attempt's
  // failure, recorded and retried like any other — never an exception that leaves the delivery
  // leased with no outcome, to be claimed (and thrown on) again.
  try {
    if (route.problem !== undefined) throw new Error(route.problem);
    const { destination, target } = route;
    const prepared = destination.prepare(
      { messageId: delivery.message_id, endpointId: delivery.endpoint_id, payload: delivery.payload, isTest: delivery.is_test },
      target,
      input.secrets ?? [],
    );
    loggedHeaders = prepared.loggedHeaders;
    if (input.secrets === null) {
      attempt = failed("secret_unavailable", "the endpoint's signing secret cannot be decrypted with ENCRYPTION_KEY or ENCRYPTION_KEYS_PREVIOUS", 0);
    } else {
      const result = await destination.send(prepared.request, { config, policy: input.policy, isolationKey: delivery.endpoint_id });
      attempt = { result, verdict: destination.classify(result, Date.now()) };
    }
  } catch (error) {
    logger.error("a delivery attempt failed inside Webhook Admin", { delivery_id: delivery.id, message_id: delivery.message_id, endpoint_id: delivery.endpoint_id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    attempt = failed("internal_error", "the request could not be made (the worker's log has the cause)", Math.round(performance.now() - started));
  }
  const { result, verdict } = attempt;
  const finishedAt = new Date();
  let next: AttemptOutcome["next"] = null;
  if (trigger === "scheduled" || trigger === "probe") {
    if (verdict.success) next = { status: "succeeded", attemptAt: null };
    else {
      const now = finishedAt.getTime();
      let at = nextAttemptAfterFailure(config.DELIVERY_SCHEDULE, delivery.scheduled_attempts + 1, now);
      if (at !== null && verdict.retryAfterMs !== null) {
        const scheduleEnd = delivery.created_at.getTime() + config.DELIVERY_SCHEDULE.reduce((a, b) => a + b, 0);
        at = applyRetryAfter(at, verdict.retryAfterMs, now, scheduleEnd);
      }
      next = at === null ? { status: "failed", attemptAt: null } : { status: "pending", attemptAt: new Date(at) };
    }
  }
  return {
    attemptId: newId("attempt", finishedAt.getTime()),
    deliveryId: delivery.id,
    messageId: delivery.message_id,
    endpointId: delivery.endpoint_id,
    consumerId: delivery.consumer_id,
    attemptNumber: delivery.attempts + 1,
    trigger,
    success: verdict.success,
    statusCode: result.statusCode,
    error: verdict.error,
    errorDetail: result.errorDetail,
    responseBody: result.responseBody,
    durationMs: result.durationMs,
    requestHeaders: loggedHeaders,
    url: route.where,
    finishedAt,
    next,
  };
}

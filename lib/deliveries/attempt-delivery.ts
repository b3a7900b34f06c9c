import type { Config } from "../config";
import { newId } from "../ids";
import type { AttemptTrigger } from "../db/schema";
import { postWebhook, type EgressPolicy, type EgressResult } from "../webhooks/egress";
import { urlPolicy } from "../webhooks/policy";
import { applyRetryAfter, nextAttemptAfterFailure, parseRetryAfter } from "../webhooks/schedule";
import type { AttemptOutcome } from "./record-outcomes";
import { loggedRequestHeaders, webhookHeaders } from "./webhook-request";
import { logger } from "../logger";

export function egressPolicy(config: Config): EgressPolicy {
  return urlPolicy(config);
}

const SECRET_UNAVAILABLE: EgressResult = {
  statusCode: null,
  error: "secret_unavailable",
  errorDetail: "the endpoint's signing secret cannot be decrypted with ENCRYPTION_KEY or ENCRYPTION_KEYS_PREVIOUS",
  headers: {},
  responseBody: "",
  durationMs: 0,
};

export type DeliveryTarget = {
  id: string;
  message_id: string;
  endpoint_id: string;
  consumer_id: string;
  attempts: number;
  scheduled_attempts: number;
  created_at: Date;
  payload: string;
  /** A test send (POST /endpoints/{id}/test): marked `webhook-test: true` for the receiver. */
  is_test: boolean;
  url: string;
  headers: Record<string, string>;
  /** Also send the signature as `svix-id`, `svix-timestamp`, `svix-signature` (receivers written for Svix). */
  svix_headers: boolean;
};

/**
 * One HTTP attempt of a delivery and what it means for the delivery: any 2xx succeeds; anything
 * else (3xx, 4xx including 410, 5xx, transport errors) fails and is retried per the schedule.
 * `scheduled` attempts move the delivery along its schedule; manual and recovery ones do not.
 */
export async function attemptDelivery(input: {
  delivery: DeliveryTarget;
  /** null: the endpoint's secrets cannot be decrypted; nothing is sent unsigned, the attempt fails. */
  secrets: string[] | null;
  trigger: AttemptTrigger;
  config: Config;
  policy?: EgressPolicy;
}): Promise<AttemptOutcome> {
  const { delivery, config, trigger } = input;
  const started = performance.now();
  let headers: Record<string, string> = {};
  let result: EgressResult;
  // Total: whatever an endpoint's URL, headers, DNS, TLS or answer make a step throw is this
  // attempt's failure, recorded and retried like any other — never an exception that leaves the
  // delivery leased with no outcome, to be claimed (and thrown on) again.
  try {
    headers = webhookHeaders({ messageId: delivery.message_id, body: delivery.payload, secrets: input.secrets ?? [], custom: delivery.headers, test: delivery.is_test, svix: delivery.svix_headers });
    result = input.secrets === null ? SECRET_UNAVAILABLE : await postWebhook({
      url: delivery.url,
      headers,
      body: delivery.payload,
      timeoutMs: config.DELIVERY_TIMEOUT,
      bodyLimit: config.RESPONSE_BODY_LIMIT,
      policy: input.policy ?? egressPolicy(config),
      isolationKey: delivery.endpoint_id,
    });
  } catch (error) {
    logger.error("a delivery attempt failed inside Webhook Admin", { delivery_id: delivery.id, message_id: delivery.message_id, endpoint_id: delivery.endpoint_id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    result = {
      statusCode: null,
      error: "internal_error",
      errorDetail: "the request could not be made (the worker's log has the cause)",
      headers: {},
      responseBody: "",
      durationMs: Math.round(performance.now() - started),
    };
  }
  const finishedAt = new Date();
  const success = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
  let next: AttemptOutcome["next"] = null;
  if (trigger === "scheduled" || trigger === "probe") {
    if (success) next = { status: "succeeded", attemptAt: null };
    else {
      const now = finishedAt.getTime();
      let at = nextAttemptAfterFailure(config.DELIVERY_SCHEDULE, delivery.scheduled_attempts + 1, now);
      if (at !== null && (result.statusCode === 429 || result.statusCode === 503)) {
        const scheduleEnd = delivery.created_at.getTime() + config.DELIVERY_SCHEDULE.reduce((a, b) => a + b, 0);
        at = applyRetryAfter(at, parseRetryAfter(result.headers["retry-after"], now), now, scheduleEnd);
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
    success,
    statusCode: result.statusCode,
    error: result.error ?? (success ? null : result.statusCode !== null && result.statusCode < 400 && result.statusCode >= 300 ? "redirect_not_followed" : null),
    errorDetail: result.errorDetail,
    responseBody: result.responseBody,
    durationMs: result.durationMs,
    requestHeaders: loggedRequestHeaders(headers, delivery.headers),
    url: delivery.url,
    finishedAt,
    next,
  };
}

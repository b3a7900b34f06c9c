import { z } from "zod";
import { postWebhook } from "../webhooks/egress";
import { loggedRequestHeaders, webhookHeaders } from "../webhooks/request-headers";
import { parseRetryAfter } from "../webhooks/schedule";
import { defineDestination } from "./destination";

/** An http endpoint's target: built by the claim from the endpoint's url, headers and svix_headers. */
export const httpTarget = z.object({
  url: z.string(),
  /** The endpoint's own headers, sent with every attempt and masked in the log. */
  headers: z.record(z.string(), z.string()),
  /** Also send the signature as `svix-id`, `svix-timestamp`, `svix-signature` (receivers written for Svix). */
  svix_headers: z.boolean(),
});
export type HttpTarget = z.infer<typeof httpTarget>;

export type HttpRequest = { url: string; headers: Record<string, string>; body: string };

/**
 * A POST signed with Standard Webhooks, through the one egress guard (SSRF rules on the address
 * connected to, DELIVERY_TIMEOUT as the whole deadline, at most RESPONSE_BODY_LIMIT bytes of the
 * answer read). Any 2xx succeeds; anything else fails and is retried — 3xx too, since redirects
 * are never followed; a 429 or 503 with Retry-After asks the schedule to wait.
 */
export const http = defineDestination<HttpTarget, HttpRequest>({
  kind: "http",
  target: httpTarget,
  describe: (target) => target.url,
  prepare(delivery, target, secrets) {
    const headers = webhookHeaders({
      messageId: delivery.messageId,
      body: delivery.payload,
      secrets,
      custom: target.headers,
      test: delivery.isTest,
      svix: target.svix_headers,
    });
    return { request: { url: target.url, headers, body: delivery.payload }, loggedHeaders: loggedRequestHeaders(headers, target.headers) };
  },
  send: (request, { config, policy, isolationKey }) =>
    postWebhook({ ...request, timeoutMs: config.DELIVERY_TIMEOUT, bodyLimit: config.RESPONSE_BODY_LIMIT, policy, isolationKey }),
  classify(result, now) {
    const code = result.statusCode;
    if (code !== null && code >= 200 && code < 300) return { success: true, error: null, retryAfterMs: null };
    return {
      success: false,
      error: result.error ?? (code !== null && code >= 300 && code < 400 ? "redirect_not_followed" : null),
      retryAfterMs: code === 429 || code === 503 ? parseRetryAfter(result.headers["retry-after"], now) : null,
    };
  },
});

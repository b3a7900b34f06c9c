import type { Config } from "../../config";
import { USER_AGENT } from "../../deliveries/webhook-request";
import { postWebhook } from "../../webhooks/egress";
import { urlPolicy } from "../../webhooks/policy";
import { shortError, type SendOutcome } from "./outcome";

/** A channel's HTTP request: Slack, Teams, Chatwork and webhook channels all end here. */
export type AlertRequest = { url: string; headers: Record<string, string>; body: string };

/**
 * POSTs through the one egress guard (SSRF rules on the address connected to, no redirects) with
 * ALERT_TIMEOUT as the whole deadline, on a connection pool of the channel's own — so a hung
 * channel never shares sockets with deliveries or other channels. The URL (whose path is often
 * the credential) never appears in the outcome.
 */
export async function postAlert(request: AlertRequest, config: Config, channelId: string): Promise<SendOutcome> {
  const result = await postWebhook({
    url: request.url,
    headers: { "user-agent": USER_AGENT, ...request.headers },
    body: request.body,
    timeoutMs: config.ALERT_TIMEOUT,
    bodyLimit: 300,
    policy: urlPolicy(config),
    isolationKey: `alert:${channelId}`,
  });
  if (result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300) return { ok: true, message: request.body };
  const error =
    result.statusCode !== null
      ? `HTTP ${result.statusCode}${result.responseBody ? `: ${result.responseBody}` : ""}`
      : `${result.error}: ${result.errorDetail ?? ""}`;
  return { ok: false, error: shortError(error), message: request.body };
}

/** `https://hooks.slack.com/services/…` → the same path under `base` (a local fake, a proxy). */
export function rebaseUrl(url: string, base: string): string {
  const target = new URL(url);
  return base.replace(/\/+$/, "") + target.pathname + target.search;
}

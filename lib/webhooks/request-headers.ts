import { REDACTED_HEADER_VALUE } from "./headers";
import { secretKeyBytes, signatureHeader } from "./sign";

export const USER_AGENT = "WebhookAdmin/0.1 (+https://github.com/webhook-admin)";

/**
 * The headers of one attempt: Standard Webhooks' id (the message id, stable across retries), a
 * fresh timestamp, and one `v1,` signature per active secret; then the endpoint's own headers,
 * which validation keeps from touching any of ours.
 */
export function webhookHeaders(input: {
  messageId: string;
  body: string;
  secrets: string[];
  custom: Record<string, string>;
  /** A test send: `webhook-test: true`, so a receiver can tell it from real traffic (it is signed like any other). */
  test?: boolean;
  /** The same three values under Svix's names too, for receivers that read `svix-*` by name. */
  svix?: boolean;
  now?: number;
}): Record<string, string> {
  const timestamp = String(Math.floor((input.now ?? Date.now()) / 1000));
  const signature = signatureHeader(input.secrets.map(secretKeyBytes), input.messageId, Number(timestamp), input.body);
  return {
    ...input.custom,
    "content-type": "application/json",
    "user-agent": USER_AGENT,
    "webhook-id": input.messageId,
    "webhook-timestamp": timestamp,
    "webhook-signature": signature,
    ...(input.svix ? { "svix-id": input.messageId, "svix-timestamp": timestamp, "svix-signature": signature } : {}),
    ...(input.test ? { "webhook-test": "true" } : {}),
  };
}

/** What the attempt log keeps of the request: our headers in full, the endpoint's own masked. */
export function loggedRequestHeaders(sent: Record<string, string>, custom: Record<string, string>): Record<string, string> {
  const logged: Record<string, string> = {};
  for (const [name, value] of Object.entries(sent)) logged[name.toLowerCase()] = name in custom ? REDACTED_HEADER_VALUE : value;
  return logged;
}

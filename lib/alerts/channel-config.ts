import { z } from "zod";
import type { Config } from "../config";
import { decrypt, decryptionKeys, encrypt } from "../crypto/encryption";
import { EndpointUrlForbiddenError, ValidationError, zodFieldErrors } from "../errors";
import { urlPolicy } from "../webhooks/policy";
import { checkEndpointUrl } from "../webhooks/url-safety";
import { isValidSecret, generateSecret } from "../webhooks/sign";
import type { AlertChannelKind } from "./kinds";
import { Text } from "../schemas";

export type ChannelKind = AlertChannelKind;

const Url = Text.min(1).max(2048);

/** Each kind's config as the API takes it and the worker reads it back (after decryption). */
export const CHANNEL_CONFIGS = {
  slack: z.strictObject({ webhook_url: Url.describe("The Slack incoming-webhook URL (https://hooks.slack.com/services/…).") }),
  teams: z.strictObject({ webhook_url: Url.describe("The Microsoft Teams workflow or incoming-webhook URL.") }),
  chatwork: z.strictObject({
    // Sent as a header: printable ASCII only, so it can never smuggle a CR/LF.
    api_token: z.string().regex(/^[\x21-\x7e]{8,256}$/, "must be 8–256 printable characters without spaces").describe("A Chatwork API token."),
    room_id: z
      .union([z.string().regex(/^\d{1,20}$/, "must be the room's numeric id"), z.number().int().positive()])
      .transform(String)
      .describe("The numeric id of the room to post in."),
  }),
  email: z.strictObject({ to: z.array(z.email()).min(1).max(20).describe("Addresses the alert is mailed to (through SMTP_URL).") }),
  webhook: z.strictObject({
    url: Url.describe("Any URL the SSRF rules allow; receives signed `{type, timestamp, data}` POSTs."),
    secret: z.string().optional().describe("A `whsec_…` signing secret; generated when absent."),
  }),
} satisfies Record<ChannelKind, z.ZodType>;

export type ChannelConfigs = { [K in ChannelKind]: z.output<(typeof CHANNEL_CONFIGS)[K]> };
export type ChannelConfig = ChannelConfigs[ChannelKind];

/** The URL-valued field of each kind, checked against the SSRF rules at create and update. */
const URL_FIELD: Partial<Record<ChannelKind, string>> = { slack: "webhook_url", teams: "webhook_url", webhook: "url" };

function assertChannelUrl(raw: string, path: string, settings: Config): string {
  const check = checkEndpointUrl(raw, urlPolicy(settings));
  if (check.ok) return check.url.toString();
  if (check.invalid) throw new ValidationError("The channel config is invalid.", [{ path, message: check.reason }]);
  throw new EndpointUrlForbiddenError(check.reason, path);
}

/**
 * Validates a kind's config (already shaped by zod, or a merged PATCH), checks its URL under the
 * SSRF rules and fills in a webhook channel's generated secret. Throws 422 problems.
 */
export function checkChannelConfig(kind: ChannelKind, raw: unknown, settings: Config): ChannelConfig {
  const parsed = CHANNEL_CONFIGS[kind].safeParse(raw);
  if (!parsed.success) {
    const errors = zodFieldErrors(parsed.error).map((e) => ({ ...e, path: e.path === "(root)" ? "config" : `config.${e.path}` }));
    throw new ValidationError("The channel config is invalid.", errors);
  }
  const config = { ...parsed.data } as Record<string, unknown>;
  const urlField = URL_FIELD[kind];
  if (urlField) config[urlField] = assertChannelUrl(config[urlField] as string, `config.${urlField}`, settings);
  if (kind === "webhook") {
    if (config.secret === undefined) config.secret = generateSecret();
    else if (!isValidSecret(config.secret as string)) {
      throw new ValidationError("The channel config is invalid.", [
        { path: "config.secret", message: "must be whsec_ followed by base64 of 24 to 75 bytes" },
      ]);
    }
  }
  return config as ChannelConfig;
}

/** `https://hooks.slack.com/…Xy9z`: the origin and the last 4 characters, never the secret path. */
export function maskUrl(raw: string): string {
  const url = new URL(raw);
  const rest = raw.slice(url.origin.length);
  if (rest.length <= 1) return url.origin;
  return `${url.origin}/…${rest.length >= 16 ? rest.slice(-4) : ""}`;
}

function maskToken(token: string): string {
  return `…${token.length >= 16 ? token.slice(-4) : ""}`;
}

/** What the API shows of a config: credentials never in full (stored beside the ciphertext). */
export function maskChannelConfig(kind: ChannelKind, config: ChannelConfig): Record<string, unknown> {
  switch (kind) {
    case "slack":
    case "teams":
      return { webhook_url: maskUrl((config as ChannelConfigs["slack"]).webhook_url) };
    case "chatwork": {
      const c = config as ChannelConfigs["chatwork"];
      return { api_token: maskToken(c.api_token), room_id: c.room_id };
    }
    case "email":
      return { to: (config as ChannelConfigs["email"]).to };
    case "webhook": {
      const c = config as ChannelConfigs["webhook"];
      return { url: maskUrl(c.url), secret: "whsec_…" };
    }
  }
}

export function sealChannelConfig(config: ChannelConfig, settings: Config): { configCiphertext: string; keyId: string } {
  const { ciphertext, keyId } = encrypt(JSON.stringify(config), settings.ENCRYPTION_KEY);
  return { configCiphertext: ciphertext, keyId };
}

export function openChannelConfig(ciphertext: string, settings: Config): Record<string, unknown> {
  return JSON.parse(decrypt(ciphertext, decryptionKeys(settings))) as Record<string, unknown>;
}

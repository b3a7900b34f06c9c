import { createHash, timingSafeEqual } from "node:crypto";
import type { Ctx } from "../context";
import { setTimeout as sleep } from "node:timers/promises";
import { like } from "drizzle-orm";
import { endpoints } from "../db/schema";
import { currentSecret } from "../endpoints/secrets";
import { AppError, NotFoundError } from "../errors";
import { secretKeyBytes, signPayload } from "../webhooks/sign";
import { DEMO_RECEIVER_PATH, DEMO_RECEIVERS, type DemoReceiver } from "./catalog";

/** What Standard Webhooks receivers allow between the signed timestamp and their own clock. */
const TIMESTAMP_TOLERANCE_S = 5 * 60;
export const FLAKY_SLOW_MS = 1500;

export type ReceiverAnswer = { status: number; body: Record<string, unknown> };

class DemoReceiverError extends AppError {}

/**
 * The flaky receiver's answer to a message, by a hash of its id so a test can predict it: about a
 * quarter are refused with 503 the first time this process sees them (a full queue, healed by the
 * retry 5 s later), about a tenth are answered slowly.
 */
export function flakyOutcome(messageId: string): "fail" | "slow" | "ok" {
  const byte = createHash("sha256").update(messageId).digest()[0]!;
  return byte < 64 ? "fail" : byte < 90 ? "slow" : "ok";
}

// Which refused messages were refused already: the retry of each succeeds, so the flaky
// endpoint's failure streak never outlasts its burst and no demo policy disables it.
const refusedOnce = new Set<string>();
const REFUSED_KEPT = 10_000;

function refuseFirstTime(messageId: string): boolean {
  if (refusedOnce.has(messageId)) return false;
  if (refusedOnce.size >= REFUSED_KEPT) refusedOnce.clear();
  refusedOnce.add(messageId);
  return true;
}

/** Whether any `v1,` signature in the header is the body's HMAC under any of the secrets. */
function signedByAny(secrets: string[], id: string, timestamp: number, body: string, header: string): boolean {
  const given = header.split(" ").map((part) => Buffer.from(part));
  return secrets.some((secret) => {
    const expected = Buffer.from(signPayload(secretKeyBytes(secret), id, timestamp, body));
    return given.some((sig) => sig.length === expected.length && timingSafeEqual(sig, expected));
  });
}

/**
 * One request to a receiver the embedded demo serves itself, verified as a customer's receiver
 * should: the Standard Webhooks signature under the secret of an endpoint pointing here (401
 * otherwise), then `ok` always 200, `flaky` as flakyOutcome says, `retired` 410 Gone.
 */
export async function answerDemoReceiver({ ctx, input: { name, headers, body } }: { ctx: Ctx; input: { name: string; headers: Headers; body: string } }): Promise<ReceiverAnswer> {
  if (!ctx.config.WEBHOOK_ADMIN_DEMO || !(DEMO_RECEIVERS as readonly string[]).includes(name)) throw new NotFoundError("demo receiver", name);
  const receiver = name as DemoReceiver;
  const id = headers.get("webhook-id") ?? "";
  const timestamp = headers.get("webhook-timestamp") ?? "";
  const signature = headers.get("webhook-signature") ?? "";
  const seconds = Number(timestamp);
  const refuse = (detail: string) => new DemoReceiverError(401, "invalid_signature", "Invalid signature", detail);
  if (!id || !/^\d+$/.test(timestamp) || !signature) throw refuse("webhook-id, webhook-timestamp and webhook-signature are required.");
  if (Math.abs(Date.now() / 1000 - seconds) > TIMESTAMP_TOLERANCE_S) throw refuse("webhook-timestamp is more than 5 minutes away.");
  const pointingHere = await ctx.db
    .select({ id: endpoints.id })
    .from(endpoints)
    .where(like(endpoints.url, `%${DEMO_RECEIVER_PATH}${receiver}`));
  const secrets = await Promise.all(pointingHere.map((endpoint) => currentSecret(ctx, endpoint.id)));
  if (!signedByAny(secrets, id, seconds, body, signature)) throw refuse("No signature matches the secret of an endpoint pointing at this receiver.");

  if (receiver === "retired") {
    throw new DemoReceiverError(410, "gone", "Gone", `This hook was retired; Acme now receives at ${ctx.config.APP_URL}${DEMO_RECEIVER_PATH}ok.`);
  }
  if (receiver === "flaky") {
    const outcome = flakyOutcome(id);
    if (outcome === "fail" && refuseFirstTime(id)) throw new DemoReceiverError(503, "unavailable", "Service unavailable", "The analytics queue is full; try again later.");
    if (outcome === "slow") await sleep(FLAKY_SLOW_MS);
  }
  return { status: 200, body: { received: id } };
}

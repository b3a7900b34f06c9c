import type { Config } from "../config";
import type { Sql } from "../db/client";
import type { AttemptTrigger } from "../db/schema";
import { attemptDelivery, type DeliveryTarget } from "./attempt-delivery";
import { recordOutcomes } from "./record-outcomes";
import { healthPolicy } from "./deliver-due";
import { wakeDeliveries } from "../jobs";
import { activeSecretCiphertexts, decryptSecrets } from "./signing-keys";

/**
 * A manual (or recovery) attempt of one delivery, now, whatever its state or its endpoint's. It is
 * logged like any attempt; a success marks the delivery succeeded, a failure leaves its schedule as
 * it was. Returns false when the delivery no longer exists.
 */
export async function resendDelivery(sql: Sql, config: Config, input: { deliveryId: string; trigger: AttemptTrigger }): Promise<boolean> {
  const [delivery] = await sql<(DeliveryTarget & { ciphertexts: string[] })[]>`
    select d.id, d.message_id, d.endpoint_id, d.consumer_id, d.attempts, d.scheduled_attempts, d.created_at,
           m.payload, e.url, e.headers, ${activeSecretCiphertexts(sql)} as ciphertexts
    from deliveries d join messages m on m.id = d.message_id join endpoints e on e.id = d.endpoint_id
    where d.id = ${input.deliveryId}`;
  if (!delivery) return false;
  const outcome = await attemptDelivery({ delivery, secrets: decryptSecrets(delivery.ciphertexts), trigger: input.trigger, config });
  const { unparked } = await recordOutcomes(sql, { outcomes: [outcome], health: healthPolicy(config) });
  if (unparked > 0) await wakeDeliveries(sql);
  return true;
}

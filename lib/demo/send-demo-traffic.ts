import { setTimeout as sleep } from "node:timers/promises";
import type { Ctx } from "../context";
import { createMessage } from "../messages/create-message";
import { DEMO_CONSUMER, DEMO_MESSAGES, DEMO_WAVES, demoMessage } from "./catalog";

/**
 * The demo's traffic: DEMO_MESSAGES messages to the demo consumer through the ingest verb, in
 * DEMO_WAVES waves `everyMs` apart, so the per-minute charts have more than one bar. Stops early
 * when `signal` aborts; returns how many were sent.
 */
export async function sendDemoTraffic({ ctx, everyMs, signal }: { ctx: Ctx; everyMs: number; signal?: AbortSignal }): Promise<number> {
  const perWave = Math.ceil(DEMO_MESSAGES / DEMO_WAVES);
  let sent = 0;
  for (let wave = 0; wave < DEMO_WAVES && !signal?.aborted; wave++) {
    if (wave > 0) await sleep(everyMs, undefined, { signal }).catch(() => {});
    for (let i = wave * perWave; i < Math.min(DEMO_MESSAGES, (wave + 1) * perWave) && !signal?.aborted; i++) {
      await createMessage({ ctx, input: { consumer: DEMO_CONSUMER.uid, ...demoMessage(i) } });
      sent++;
    }
  }
  return sent;
}

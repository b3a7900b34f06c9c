import { countAttempts, type BenchDatabase } from "./database";
import type { Receiver } from "./receiver";
import { int, sleep } from "./stats";

export type DeliveryResult = {
  expected: number;
  received: number;
  attempts: number;
  failedAttempts: number;
  duplicates: number;
  /** From `startedAt` until the receiver had every request AND every attempt row was written. */
  elapsedMs: number;
  /** From `startedAt` to the first request at the receiver (worker boot, first claim). */
  firstArrivalMs: number;
  /** From the first to the last request at the receiver: the steady delivery rate. */
  arrivalSpanMs: number;
  complete: boolean;
};

const STALL_MS = 60_000;

/**
 * Waits until the receiver has `expected` requests on `group` and the attempts table has
 * `expected` rows more than `attemptsBefore`, printing a progress line every second. Gives up
 * (complete: false) when neither count moves for a minute, or after `maxMs` when given.
 */
export async function awaitDeliveries(
  ctx: { receiver: Receiver; db: BenchDatabase },
  options: { label: string; group: string; expected: number; attemptsBefore: number; startedAt: number; maxMs?: number },
): Promise<DeliveryResult> {
  const { receiver, db } = ctx;
  const received = () => receiver.count(options.group);
  let attempts = { total: options.attemptsBefore, failed: 0 };
  let lastChange = performance.now();
  let lastSeen = "";
  let nextProgress = performance.now() + 1000;
  let previous = { at: performance.now(), received: received() };
  for (;;) {
    const now = performance.now();
    // The attempt count costs a query: poll it when the receiver is done, and once a second.
    if (received() >= options.expected || now >= nextProgress) attempts = await countAttempts(db.sql);
    const written = attempts.total - options.attemptsBefore;
    if (received() >= options.expected && written >= options.expected) break;
    if (now >= nextProgress) {
      const rate = ((received() - previous.received) * 1000) / (now - previous.at);
      console.log(
        `  ${options.label}: ${int(received())} / ${int(options.expected)} received, ${int(written)} attempts written` +
          ` (${int(rate)}/s, ${((now - options.startedAt) / 1000).toFixed(0)} s)`,
      );
      previous = { at: now, received: received() };
      nextProgress += 1000;
    }
    if (options.maxMs !== undefined && now - options.startedAt >= options.maxMs) break;
    const seen = `${received()}/${written}`;
    if (seen !== lastSeen) {
      lastSeen = seen;
      lastChange = now;
    } else if (now - lastChange > STALL_MS) {
      console.log(`  ${options.label}: no progress for ${STALL_MS / 1000} s — giving up on this phase.`);
      break;
    }
    await sleep(received() >= options.expected ? 50 : 20);
  }
  const end = performance.now();
  const written = attempts.total - options.attemptsBefore;
  const first = receiver.firstAt(options.group) ?? end;
  const last = receiver.lastAt(options.group) ?? end;
  return {
    expected: options.expected,
    received: received(),
    attempts: written,
    failedAttempts: attempts.failed,
    duplicates: receiver.duplicates,
    elapsedMs: end - options.startedAt,
    firstArrivalMs: first - options.startedAt,
    arrivalSpanMs: last - first,
    complete: received() >= options.expected && written >= options.expected,
  };
}

import { isRetryableConflict } from "./errors";

const ATTEMPTS = 5;

/**
 * Runs `fn` — one whole transaction — again when Postgres rolled it back for a deadlock (40P01)
 * or a serialization failure (40001). Every writer locks queue rows, then deliveries, then
 * endpoints, which makes these rare; what remains (two writers meeting the same queue rows in
 * different orders) goes through on the next try. A client never sees it as a 500.
 */
export async function retryOnConflict<T>(fn: () => Promise<T>, retryable: (error: unknown) => boolean = isRetryableConflict): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      if (!retryable(error) || attempt >= ATTEMPTS) throw error;
      // A short random pause, so the two sides do not meet again in step.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
    }
  }
}

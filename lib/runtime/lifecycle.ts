import { logger } from "../logger";

// On globalThis: instrumentation.ts and the readiness route are separate bundles in Next.js.
const state = globalThis as unknown as { __webhookAdminShuttingDown?: boolean; __webhookAdminShutdownInstalled?: boolean };

/** Whether this process has been asked to stop (readiness then answers 503). */
export function isShuttingDown(): boolean {
  return state.__webhookAdminShuttingDown === true;
}

export function markShuttingDown(): void {
  state.__webhookAdminShuttingDown = true;
}

/**
 * The web process's SIGTERM: readiness turns 503 at once while the server goes on serving for
 * `delayMs` (so a load balancer polling /api/health/ready stops sending new requests), then the
 * handlers that were listening before — `next start`'s own, which closes the server, waits for
 * requests in flight and exits — run as if the signal came then. Without such handlers the
 * process exits after the delay.
 */
export function installShutdownDelay(delayMs: number): void {
  if (state.__webhookAdminShutdownInstalled) return;
  state.__webhookAdminShutdownInstalled = true;
  const previous = process.listeners("SIGTERM");
  for (const listener of previous) process.removeListener("SIGTERM", listener);
  process.once("SIGTERM", () => {
    markShuttingDown();
    logger.info("web app stopping: /api/health/ready answers 503, then the server closes", { delay_ms: delayMs });
    setTimeout(() => {
      if (previous.length === 0) process.exit(0);
      for (const listener of previous) (listener as (signal: NodeJS.Signals) => void)("SIGTERM");
    }, delayMs);
  });
}

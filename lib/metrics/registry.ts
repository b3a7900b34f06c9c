import { collectDefaultMetrics, Registry } from "prom-client";

/** Every series either process exposes starts with this (Prometheus naming: a prefix per application). */
export const METRIC_PREFIX = "webhook_admin_";

/**
 * A registry of one process's series, with prom-client's default process metrics (CPU, memory,
 * event-loop lag, GC, handles) under the same prefix.
 */
export function createRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: METRIC_PREFIX });
  return registry;
}

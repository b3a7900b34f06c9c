import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry, type CollectFunction } from "prom-client";

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

/**
 * The three kinds of series, each named with METRIC_PREFIX and registered in `registry` only (never
 * prom-client's global registry, which both processes would share in tests).
 */
export function seriesIn(registry: Registry) {
  const registers = [registry];
  return {
    counter: <L extends string = string>(name: string, help: string, labelNames: readonly L[] = []) =>
      new Counter<L>({ name: METRIC_PREFIX + name, help, labelNames, registers }),
    histogram: <L extends string = string>(name: string, help: string, buckets: number[], labelNames: readonly L[] = []) =>
      new Histogram<L>({ name: METRIC_PREFIX + name, help, labelNames, buckets, registers }),
    gauge: <L extends string = string>(name: string, help: string, labelNames: readonly L[] = [], collect?: CollectFunction<Gauge<L>>) =>
      new Gauge<L>({ name: METRIC_PREFIX + name, help, labelNames, registers, ...(collect && { collect }) }),
  };
}

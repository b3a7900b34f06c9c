/**
 * Part f3 of `npm run bench`: what the worker's Prometheus metrics cost an attempt. The pump calls
 * recordAttemptStart and recordAttempt once per attempt and observeClaim once per claimed batch;
 * this times exactly those calls (the same functions, the same registry) over many attempts, and
 * one scrape of the worker's registry, in this process. Compared with part f2's CPU per attempt
 * (worker + PostgreSQL), it says what share of an attempt's cost the metrics are.
 */
import { performance } from "node:perf_hooks";
import { observeClaim, recordAttempt, recordAttemptStart } from "../lib/metrics/worker";

export type MetricsCost = { attempts: number; microsPerAttempt: number };

export async function measureMetricsCost(attempts = 200_000, batch = 100): Promise<MetricsCost> {
  const created = new Date(Date.now() - 5);
  const triggers = ["scheduled", "manual", "recovery", "probe"] as const;
  const run = async (n: number) => {
    for (let i = 0; i < n; i += batch) {
      await observeClaim(Promise.resolve({ deliveries: new Array(batch) }));
      for (let j = 0; j < batch; j++) {
        recordAttemptStart({ attempts: j % 3 === 0 ? 0 : 1, created_at: created, kind: 0 });
        recordAttempt({ success: j % 7 !== 0, trigger: triggers[j % 4]!, durationMs: 5 + (j % 40) });
      }
    }
  };
  await run(20_000); // warm-up: JIT and the label children
  const started = performance.now();
  await run(attempts);
  const elapsed = performance.now() - started;
  return { attempts, microsPerAttempt: (elapsed * 1000) / attempts };
}

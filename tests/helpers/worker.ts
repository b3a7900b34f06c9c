import { getConfig, resetConfigForTests } from "../../lib/config";
import { startWorker, type WorkerHandle } from "../../worker/runtime";

/** The real worker (graphile-worker with our tasks) running in the test process. */
export async function startTestWorker(): Promise<WorkerHandle> {
  return startWorker(process.env.DATABASE_URL!, getConfig());
}

/**
 * Runs `fn` against a worker restarted under `env` (config is read once, at start), then restores
 * the environment and returns a worker restarted as before, to replace `current`.
 */
export async function withWorkerEnv(current: WorkerHandle, env: Record<string, string>, fn: () => Promise<void>): Promise<WorkerHandle> {
  await current.stop();
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  resetConfigForTests();
  const worker = await startTestWorker();
  try {
    await fn();
  } finally {
    await worker.stop();
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    resetConfigForTests();
  }
  return startTestWorker();
}

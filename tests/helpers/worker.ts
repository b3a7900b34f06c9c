import { afterAll, beforeAll } from "vitest";
import { getConfig } from "../../lib/config";
import { startWorker, type WorkerHandle } from "../../worker/runtime";
import { withEnv } from "./env";

/** The real worker (graphile-worker with our tasks) running in the test process. */
export async function startTestWorker(): Promise<WorkerHandle> {
  return startWorker(process.env.DATABASE_URL!, getConfig());
}

/**
 * The test worker for the enclosing file or describe block: started before its tests (after the
 * beforeAll hooks registered ahead of this call, so it reads the configuration they set), stopped
 * after them. A test that restarts it (withWorkerEnv) puts the new one in `current`.
 */
export function runTestWorker(): { current: WorkerHandle } {
  const worker = { current: undefined as unknown as WorkerHandle };
  beforeAll(async () => {
    worker.current = await startTestWorker();
  });
  afterAll(async () => {
    await worker.current?.stop();
  });
  return worker;
}

/**
 * Runs `fn` against a worker restarted under `env` (config is read once, at start), then restores
 * the environment and returns a worker restarted as before, to replace `current`. `beforeStart`
 * runs while no worker runs: what it queues is a backlog the new worker finds all at once.
 */
export async function withWorkerEnv(
  current: WorkerHandle,
  env: Record<string, string>,
  fn: () => Promise<void>,
  beforeStart?: () => Promise<void>,
): Promise<WorkerHandle> {
  await current.stop();
  await withEnv(env, async () => {
    await beforeStart?.();
    const worker = await startTestWorker();
    try {
      await fn();
    } finally {
      await worker.stop();
    }
  });
  return startTestWorker();
}

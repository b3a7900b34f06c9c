import { getConfig } from "../../lib/config";
import { startWorker, type WorkerHandle } from "../../worker/runtime";

/** The real worker (graphile-worker with our tasks) running in the test process. */
export async function startTestWorker(): Promise<WorkerHandle> {
  return startWorker(process.env.DATABASE_URL!, getConfig());
}

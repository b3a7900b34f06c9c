import { afterAll, beforeAll } from "vitest";
import type { WorkerHandle } from "../../worker/runtime";
import { apiClient } from "./api";
import { startReceiver } from "./receiver";
import { startTestWorker } from "./worker";

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/**
 * What the data lifecycle tests (retention, expunge, erasure) share: an API client, the real worker
 * (stopped and started again where a test must hold work back), a receiver that answers 200 and one
 * that answers 503. Set up before the file's tests, torn down after.
 */
export function lifecycleFixture() {
  const fixture = {
    api: undefined as unknown as Awaited<ReturnType<typeof apiClient>>,
    worker: null as WorkerHandle | null,
    ok: undefined as unknown as Receiver,
    down: undefined as unknown as Receiver,
    /** Stops the worker, which first finishes the attempts it has in flight. */
    async stopWorker() {
      await fixture.worker?.stop();
      fixture.worker = null;
    },
    async startWorker() {
      fixture.worker ??= await startTestWorker();
    },
  };
  beforeAll(async () => {
    fixture.api = await apiClient();
    fixture.worker = await startTestWorker();
    fixture.ok = await startReceiver((_req, res) => res.writeHead(200).end("ok"));
    fixture.down = await startReceiver((_req, res) => res.writeHead(503).end("down for a while"));
  });
  afterAll(async () => {
    await fixture.worker?.stop();
    await fixture.ok.close();
    await fixture.down.close();
  });
  return fixture;
}

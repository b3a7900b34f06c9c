import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { apiClient, type Api } from "../helpers/api";
import { consumerWithEndpoint, sendMessage } from "../helpers/fixtures";
import { runReceiver, waitFor } from "../helpers/receiver";
import { startTestWorker } from "../helpers/worker";
import { getSql } from "../../lib/db/client";
import type { WorkerHandle } from "../../worker/runtime";

/**
 * Ingest takes its times from the database's clock, as the claim does: a web host whose clock runs
 * ahead must not make a new message wait (before, it waited for the minute sweep).
 */
let api: Api;
let worker: WorkerHandle;
let uid: string;
const receiver = runReceiver();
beforeAll(async () => {
  api = await apiClient();
  ({ uid } = await consumerWithEndpoint(api, `${receiver.url}/hook`));
});
afterAll(async () => {
  await worker?.stop();
});

async function createWithClockAhead(ms: number) {
  // Only this process's Date moves: the database keeps the true time.
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(Date.now() + ms);
  try {
    return await sendMessage(api, uid, { event_type: "a.b", payload: {} });
  } finally {
    vi.useRealTimers();
  }
}

describe("a message created while the web host's clock is a minute ahead", () => {
  it("is due at once by the database's clock, dated by it, and delivered at once", async () => {
    const message = await createWithClockAhead(60_000);
    const [row] = await getSql()<{ due: boolean; dated_now: boolean }[]>`
      select q.next_attempt_at <= now() as due, m.created_at <= now() as dated_now
      from delivery_queue q join deliveries d on d.id = q.delivery_id join messages m on m.id = d.message_id
      where m.id = ${message.id}`;
    expect(row).toEqual({ due: true, dated_now: true });
    expect(new Date(message.created_at as string).getTime()).toBeLessThanOrEqual(Date.now());

    worker = await startTestWorker();
    await waitFor(() => receiver.received.length === 1, { what: "the delivery" });
    expect(receiver.received[0]!.headers["webhook-id"]).toBe(message.id);
  });
});

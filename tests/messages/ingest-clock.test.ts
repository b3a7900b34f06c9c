import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { apiClient, type Api } from "../helpers/api";
import { startReceiver, waitFor } from "../helpers/receiver";
import { startTestWorker } from "../helpers/worker";
import { getSql } from "../../lib/db/client";
import type { WorkerHandle } from "../../worker/runtime";

/**
 * Ingest takes its times from the database's clock, as the claim does: a web host whose clock runs
 * ahead must not make a new message wait (before, it waited for the minute sweep).
 */
let api: Api;
let worker: WorkerHandle;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  api = await apiClient();
  receiver = await startReceiver();
  await api.post("/api/v1/consumers", { uid: "acme", name: "Acme" });
  await api.post("/api/v1/consumers/acme/endpoints", { url: `${receiver.url}/hook` });
});
afterAll(async () => {
  await worker?.stop();
  await receiver.close();
});

async function createWithClockAhead(ms: number) {
  // Only this process's Date moves: the database keeps the true time.
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(Date.now() + ms);
  try {
    const res = await api.post("/api/v1/messages", { consumer: "acme", event_type: "a.b", payload: {} });
    expect(res.status, res.text).toBe(202);
    return res.body as { id: string; created_at: string };
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
    expect(new Date(message.created_at).getTime()).toBeLessThanOrEqual(Date.now());

    worker = await startTestWorker();
    await waitFor(() => receiver.received.length === 1, { what: "the delivery" });
    expect(receiver.received[0]!.headers["webhook-id"]).toBe(message.id);
  });
});

import { describe, expect, it } from "vitest";
import { getSql } from "../../lib/db/client";
import { apiClient } from "../helpers/api";
import { consumerWithEndpoint } from "../helpers/fixtures";
import { startReceiver, waitFor } from "../helpers/receiver";
import { spawnWorker } from "../helpers/worker-process";

// Short gaps and many attempts: every message gets through the random failures in the end.
const SCHEDULE = "0,50ms,50ms,50ms,50ms,50ms,50ms,50ms,50ms,50ms,50ms,50ms";
process.env.DELIVERY_SCHEDULE = SCHEDULE;
process.env.DELIVERY_TIMEOUT = "300ms";
process.env.CIRCUIT_FAILURE_THRESHOLD = "1000";

/** A small deterministic generator: the same run every time, yet no pattern the engine could lean on. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe("ordered delivery with two workers and a SIGKILL", () => {
  it("keeps every key's sequence strictly increasing under random 503s and timeouts", async () => {
    const api = await apiClient();
    const roll = random(7);
    // Per key, the last sequence number the receiver accepted, and every violation seen.
    const accepted = new Map<string, number>();
    const violations: string[] = [];
    const receiver = await startReceiver((_req, res, body) => {
      const { customer, seq } = (JSON.parse(body) as { data: { customer: string; seq: number } }).data;
      const last = accepted.get(customer) ?? 0;
      // A repeat of the one accepted last is a retry whose answer was lost; anything older, or a skip, breaks the order.
      if (seq < last || seq > last + 1) violations.push(`${customer}: ${seq} after ${last}`);
      const r = roll();
      if (r < 0.2) return void res.writeHead(503).end();
      // Answered after the attempt's timeout: the worker sees a failure, though the receiver took it.
      if (r < 0.25) {
        if (seq === last + 1) accepted.set(customer, seq);
        return void setTimeout(() => res.writeHead(204).end(), 400);
      }
      if (seq === last + 1) accepted.set(customer, seq);
      res.writeHead(204).end();
    });
    const { uid } = await consumerWithEndpoint(api, receiver.url, { endpoint: { ordering: "ordered", ordering_key: "data.customer", max_concurrency: 8 } });
    const env = { DELIVERY_SCHEDULE: SCHEDULE, DELIVERY_TIMEOUT: "300ms", CIRCUIT_FAILURE_THRESHOLD: "1000" };
    const workers = [await spawnWorker(env), await spawnWorker(env)];
    try {
      const customers = ["a", "b", "c", "d", "e", "f"];
      const next = new Map<string, number>();
      const ids: string[] = [];
      const sendRound = async () => {
        const messages = customers.flatMap((customer) => [1, 2].map(() => {
          const seq = (next.get(customer) ?? 0) + 1;
          next.set(customer, seq);
          return { consumer: uid, event_type: "order.updated", payload: { data: { customer, seq } } };
        }));
        const res = await api.post("/api/v1/messages/batch", { messages });
        expect(res.status).toBe(200);
        ids.push(...res.body.data.map((d: { message: { id: string } }) => d.message.id));
      };
      for (let round = 0; round < 5; round++) await sendRound();
      // One worker dies mid-line, holding leases; the other goes on, and the leases run out.
      await waitFor(() => [...accepted.values()].reduce((n, v) => n + v, 0) >= 20, { timeout: 60_000, what: "lines under way" });
      await workers[0]!.kill("SIGKILL");
      for (let round = 0; round < 5; round++) await sendRound();
      await waitFor(
        async () => {
          const [row] = await getSql()<{ n: number }[]>`select count(*)::int as n from deliveries where message_id = any(${ids}) and status = 'pending'`;
          return row!.n === 0;
        },
        { timeout: 150_000, interval: 200, what: "every message settled", onTimeout: () => console.log(workers[1]!.output().slice(-3000)) },
      );
      const statuses = await getSql()<{ status: string; n: number }[]>`select status, count(*)::int as n from deliveries where message_id = any(${ids}) group by status`;
      expect(statuses).toEqual([{ status: "succeeded", n: ids.length }]);
      expect(violations).toEqual([]);
      for (const customer of customers) expect(accepted.get(customer), customer).toBe(20);
    } finally {
      for (const worker of workers) await worker.kill("SIGKILL");
      await receiver.close();
    }
  }, 240_000);
});

import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { getConfig } from "../../lib/config";
import { decryptionKeys } from "../../lib/crypto/encryption";
import { getSql } from "../../lib/db/client";
import { claimDueDeliveries } from "../../lib/deliveries/claim-due-deliveries";
import { QUEUE_KINDS } from "../../lib/db/schema/messages";
import { apiClient, type Api } from "../helpers/api";
import { consumerWithEndpoints, sendMessage } from "../helpers/fixtures";

/**
 * Fair claiming across consumers (lib/deliveries/claim/scan-due.sql): the claim's window goes round
 * the consumers with due work, by weight, whatever each has queued. Asserted on the claim itself
 * against real queue rows; no worker runs in this file. Each of these fails under time-order
 * claiming, where the oldest due rows go first whoever they belong to.
 */
const claim = (limit: number) => claimDueDeliveries(getSql(), { limit, leaseMs: 30_000, defaultConcurrency: 1_000, keys: decryptionKeys(getConfig()) });
let api: Api;

beforeAll(async () => {
  api = await apiClient();
});

afterEach(async () => {
  await getSql()`delete from delivery_queue`;
});

/** A consumer with `endpoints` endpoints (nothing listens: no worker runs) and `messages` messages sent in batches of 100; its uid and id. */
async function consumerWithBacklog(endpoints: number, messages: number, fields: Record<string, unknown> = {}) {
  const consumer = await consumerWithEndpoints(
    api,
    Array.from({ length: endpoints }, (_, i) => `http://127.0.0.1:9/hook-${i}`),
    { prefix: "fair", consumer: fields, endpoint: { max_concurrency: 1_000 } },
  );
  for (let sent = 0; sent < messages; sent += 100) {
    const batch = Array.from({ length: Math.min(100, messages - sent) }, (_, i) => ({ consumer: consumer.uid, event_type: "fair.test", payload: { i: sent + i } }));
    const res = await api.post("/api/v1/messages/batch", { messages: batch });
    expect(res.status).toBe(200);
  }
  return consumer;
}

/** How many of the claimed rows are each consumer's, by consumer id. */
function byConsumer(deliveries: { consumer_id: string }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const d of deliveries) counts[d.consumer_id] = (counts[d.consumer_id] ?? 0) + 1;
  return counts;
}

describe("fair claiming across consumers", () => {
  it("serves a consumer's one new message in the next claim, whatever another consumer has queued before it", async () => {
    const busy = await consumerWithBacklog(4, 300);
    const quiet = await consumerWithEndpoints(api, ["http://127.0.0.1:9/quiet"], { prefix: "fair" });
    const message = await sendMessage(api, quiet.uid, { event_type: "fair.test" });
    // 1,200 of the busy consumer's rows are older and due; a claim of 10 still takes the quiet one's.
    const { deliveries } = await claim(10);
    expect(deliveries).toHaveLength(10);
    expect(deliveries.filter((d) => d.message_id === message.id)).toHaveLength(1);
    expect(byConsumer(deliveries)).toEqual({ [busy.consumerId]: 9, [quiet.consumerId]: 1 });
  });

  it("shares the batch by weight, and a consumer with less work leaves its share to the others", async () => {
    const heavy = await consumerWithBacklog(1, 100, { weight: 3 });
    const light = await consumerWithBacklog(1, 100);
    expect(byConsumer((await claim(40)).deliveries)).toEqual({ [heavy.consumerId]: 30, [light.consumerId]: 10 });
    // Two rows left for the light one: a quick claim takes them with a twentieth of the window
    // (80 rows) for each weight of the heavy one; the next claim is all the heavy one's.
    await getSql()`delete from delivery_queue where consumer_id = ${light.consumerId} and lease_token is null and delivery_id not in (
                     select delivery_id from delivery_queue where consumer_id = ${light.consumerId} and lease_token is null order by next_attempt_at limit 2)`;
    const quick = await claim(40);
    expect(byConsumer(quick.deliveries)).toEqual({ [heavy.consumerId]: 12, [light.consumerId]: 2 });
    expect(quick.more).toBe(true);
    expect(byConsumer((await claim(40)).deliveries)).toEqual({ [heavy.consumerId]: 40 });
  });

  it("claims a consumer's few due rows beside another's backlog in a quick claim, small, and says more is due", async () => {
    // Fails when the few wait in a full claim of the backlog: the claim would be 100 rows.
    const backlog = await consumerWithBacklog(1, 300);
    const few = await consumerWithBacklog(1, 1);
    const quick = await claim(100);
    expect(byConsumer(quick.deliveries)).toEqual({ [backlog.consumerId]: 10, [few.consumerId]: 1 });
    // The few first: the claim's rows go in the interleaved order.
    expect(quick.deliveries[0]!.consumer_id === few.consumerId || quick.deliveries[1]!.consumer_id === few.consumerId).toBe(true);
    expect(quick.more).toBe(true);
    // The backlog alone: a full claim again.
    expect(byConsumer((await claim(100)).deliveries)).toEqual({ [backlog.consumerId]: 100 });
  });

  it("makes no quick claim of recovery items: their scan fills its window beside a consumer with few", async () => {
    await consumerWithBacklog(1, 300);
    await consumerWithBacklog(1, 1);
    // The scan stage alone (rolled back), the same rows as live traffic and then as a recovery's items.
    const scanned = (kind: number) =>
      getSql()
        .begin(async (tx) => {
          const [row] = await tx<{ n: number }[]>`select cardinality(webhook_admin_claim_scan_kind(${kind}::smallint, 200, 100))::int as n`;
          throw Object.assign(new Error("rolled back"), { n: row!.n });
        })
        .catch((error: { n?: number }) => {
          if (error.n === undefined) throw error;
          return error.n;
        });
    expect(await scanned(QUEUE_KINDS.scheduled)).toBe(11);
    await getSql()`update delivery_queue set kind = ${QUEUE_KINDS.recovery}`;
    expect(await scanned(QUEUE_KINDS.recovery)).toBe(200);
  });

  it("goes round many consumers: each is served once before any is served twice", async () => {
    const consumers: string[] = [];
    for (let i = 0; i < 12; i++) consumers.push((await consumerWithBacklog(1, 3)).consumerId);
    const served: string[][] = [];
    for (let i = 0; i < 3; i++) served.push(Object.keys(byConsumer((await claim(4)).deliveries)));
    // Three claims of four, one row each from four consumers: twelve different consumers.
    expect(served.map((s) => s.length)).toEqual([4, 4, 4]);
    expect(new Set(served.flat()).size).toBe(12);
    expect(served.flat().sort()).toEqual([...consumers].sort());
  });

  it("never lets a weight starve another consumer: the smallest is served within two claims", async () => {
    await consumerWithBacklog(2, 300, { weight: 100 });
    const small = await consumerWithBacklog(1, 5);
    const first = (await claim(10)).deliveries;
    const second = (await claim(10)).deliveries;
    expect([...first, ...second].some((d) => d.consumer_id === small.consumerId)).toBe(true);
  });
});

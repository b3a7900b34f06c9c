import { beforeAll, describe, expect, it } from "vitest";
import { getSql } from "../../lib/db/client";
import { QUEUE_KINDS } from "../../lib/db/schema";
import { getConfig } from "../../lib/config";
import { advanceRecoveries, feedPolicy } from "../../lib/recoveries/advance-recoveries";
import { apiClient, type Api } from "../helpers/api";
import { consumerWithEndpoint, sendMessages } from "../helpers/fixtures";
import { waitFor } from "../helpers/receiver";

/*
 * Every writer of the tables that reach their consumer only through a parent row fills their
 * consumer_id (migration 0021, docs/scaling.md): a database sharded by consumer distributes on it,
 * so a row without it, or with another consumer's, would land on the wrong shard. No worker runs:
 * the queue rows stay where the writers left them.
 */

let api: Api;
const sql = () => getSql();

beforeAll(async () => {
  api = await apiClient();
});

/** Rows of `table` whose consumer_id is missing or is not their parent's; and how many rows there are. */
async function mismatches(table: "delivery_queue" | "endpoint_secrets" | "recovery_items" | "recovery_sends") {
  const parent = {
    delivery_queue: sql()`select q.consumer_id, d.consumer_id as expected from delivery_queue q join deliveries d on d.id = q.delivery_id`,
    endpoint_secrets: sql()`select s.consumer_id, e.consumer_id as expected from endpoint_secrets s join endpoints e on e.id = s.endpoint_id`,
    recovery_items: sql()`select i.consumer_id, r.consumer_id as expected from recovery_items i join recoveries r on r.id = i.recovery_id`,
    recovery_sends: sql()`select s.consumer_id, r.consumer_id as expected from recovery_sends s join recoveries r on r.id = s.recovery_id`,
  }[table];
  const rows = await parent;
  return { rows: rows.length, wrong: rows.filter((r) => r.consumer_id === null || r.consumer_id !== r.expected).length };
}

describe("consumer_id on the rows that reach their consumer through a parent", () => {
  it("is filled by ingest (single and batch), a resend, a secret rotation, a recovery, its feeding and its retry", async () => {
    const a = await consumerWithEndpoint(api, "https://a.example.test/hooks", { prefix: "shard-a" });
    const b = await consumerWithEndpoint(api, "https://b.example.test/hooks", { prefix: "shard-b" });
    expect((await api.post(`/api/v1/endpoints/${a.endpointId}/secret/rotate`, {})).status).toBe(200);

    const [first] = await sendMessages(api, a.uid, 3);
    await sendMessages(api, b.uid, 2);
    const batch = await api.post("/api/v1/messages/batch", {
      messages: [
        { consumer: a.uid, event_type: "invoice.paid", payload: { n: 1 } },
        { consumer: b.uid, event_type: "invoice.paid", payload: { n: 2 } },
      ],
    });
    expect(batch.body.data.map((r: { status: number }) => r.status)).toEqual([202, 202]);
    expect((await api.post(`/api/v1/messages/${first}/resend`, { endpoint_id: a.endpointId })).status).toBe(202);

    // A's scheduled deliveries end failed (no worker ran them), so a recovery has items to feed.
    await sql()`delete from delivery_queue where kind = webhook_admin_queue_kind('scheduled') and endpoint_id = ${a.endpointId}`;
    await sql()`update deliveries set status = 'failed', attempts = 1 where endpoint_id = ${a.endpointId} and status = 'pending'`;
    const recovery = await api.post(`/api/v1/endpoints/${a.endpointId}/recover`, { since: new Date(Date.now() - 3_600_000).toISOString(), canary: 0 });
    expect(recovery.status).toBe(202);
    // The run's token bucket starts empty and fills with time: feed until it has queued an item.
    await waitFor(async () => (await advanceRecoveries(sql(), { ...feedPolicy(getConfig()), rampEveryMs: 1 })).queued > 0 || null, { what: "a recovery item queued" });
    // Every kind of queue row is there: scheduled, a resend, a recovery item.
    const kinds = await sql()<{ kind: number }[]>`select distinct kind from delivery_queue order by kind`;
    expect(kinds.map((k) => k.kind)).toEqual([QUEUE_KINDS.scheduled, QUEUE_KINDS.manual, QUEUE_KINDS.recovery]);
    // The queue's rows are checked now: canceling the run below takes its queued item away.
    const queue = await mismatches("delivery_queue");
    expect(queue.rows).toBeGreaterThan(0);
    expect(queue.wrong).toBe(0);
    // A retry of the run's failed items makes items of its own (canceled first: a run is retried once it ended).
    expect((await api.post(`/api/v1/recoveries/${recovery.body.id}/cancel`, {})).status).toBe(200);
    await sql()`update recovery_items set outcome = 'failed' where recovery_id = ${recovery.body.id}`;
    const retry = await api.post(`/api/v1/recoveries/${recovery.body.id}/retry-failed`, {});
    expect(retry.status).toBe(202);
    expect((await sql()`select 1 from recovery_items where recovery_id = ${retry.body.id}`).length).toBeGreaterThan(0);

    for (const table of ["endpoint_secrets", "recovery_items", "recovery_sends"] as const) {
      const { rows, wrong } = await mismatches(table);
      expect(rows, table).toBeGreaterThan(0);
      expect(wrong, table).toBe(0);
    }
  });
});

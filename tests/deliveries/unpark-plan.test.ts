import { beforeAll, describe, expect, it } from "vitest";
import { getSql } from "../../lib/db/client";
import { unparkFreedSlots } from "../../lib/endpoints/unpark-freed-slots";
import { newId } from "../../lib/ids";
import { apiClient } from "../helpers/api";
import { createConsumer, createEndpoint } from "../helpers/fixtures";

/**
 * The queue the soak (bench part k) ends up with when a consumer has failing endpoints: tens of
 * thousands of rows parked behind their open circuits, and a healthy endpoint of the same consumer
 * with a few rows parked for its slots. Every outcome at the healthy endpoint hands its slot on
 * (unparkFreedSlots); that must read the endpoint's own parked rows, not walk the queue's due
 * index past everyone else's — which, on 2026-12-07, read 100 million rows in ten minutes.
 */
const FAILING_ROWS = 30_000;
let healthy = "";

beforeAll(async () => {
  const api = await apiClient();
  const { uid, id: consumerId } = await createConsumer(api, {}, "unpark");
  const failing: string[] = [];
  for (let i = 0; i < 3; i++) failing.push((await createEndpoint(api, uid, `http://127.0.0.1:9/fail/${i}`)).id);
  healthy = (await createEndpoint(api, uid, "http://127.0.0.1:9/ok")).id;
  const sql = getSql();
  // Written by SQL as in bench/recovery.ts: what matters is the queue's shape, not how it came about.
  const rows = [
    ...Array.from({ length: FAILING_ROWS }, (_, i) => ({ endpoint: failing[i % 3]!, parked: true, inSeconds: 600 + (i % 600) })),
    ...Array.from({ length: 20 }, () => ({ endpoint: healthy, parked: true, inSeconds: 45 })),
    ...Array.from({ length: 200 }, (_, i) => ({ endpoint: healthy, parked: false, inSeconds: -(i % 5) })),
  ];
  const messageIds = rows.map(() => newId("message"));
  const deliveryIds = rows.map(() => newId("delivery"));
  await sql`
    insert into messages (id, consumer_id, event_type, payload)
    select unnest(${messageIds}::text[]), ${consumerId}, 'unpark.plan', '{}'`;
  await sql`
    insert into deliveries (id, message_id, endpoint_id, consumer_id, status, attempts, scheduled_attempts)
    select unnest(${deliveryIds}::text[]), unnest(${messageIds}::text[]), unnest(${rows.map((r) => r.endpoint)}::text[]), ${consumerId}, 'pending', 0, 0`;
  await sql`
    insert into delivery_queue (delivery_id, kind, endpoint_id, consumer_id, next_attempt_at, parked)
    select d.id, 0, d.endpoint_id, ${consumerId}, now() + d.s * interval '1 second', d.parked
    from unnest(${deliveryIds}::text[], ${rows.map((r) => r.endpoint)}::text[], ${rows.map((r) => String(r.inSeconds))}::text[]::int[],
                ${rows.map((r) => (r.parked ? "t" : "f"))}::text[]::boolean[]) as d(id, endpoint_id, s, parked)`;
  await sql`analyze delivery_queue`;
}, 120_000);

describe("a freed slot handed to the endpoint's parked rows", () => {
  it("reads them on the parked index, whatever the rest of the queue holds", async () => {
    const sql = getSql();
    // The statement unparkFreedSlots runs, planned as it runs it (postgres.js sends it unsent here as a fragment).
    const plan = (await sql`explain (costs off) ${unparkFreedSlots(sql, [healthy], 10)}`).map((r) => r["QUERY PLAN"] as string).join("\n");
    expect(plan).toMatch(/delivery_queue_parked_idx/);
    expect(plan).not.toMatch(/delivery_queue_due_idx/);
  });

  it("hands the slot to the endpoint's earliest parked row", async () => {
    const sql = getSql();
    const [before] = await sql<{ n: number }[]>`select count(*)::int as n from delivery_queue where endpoint_id = ${healthy} and parked`;
    const woken = await unparkFreedSlots(sql, [healthy], 10);
    // No slot is leased at the endpoint: all ten of its slots are free, so ten parked rows go.
    expect(woken.count).toBe(10);
    const [after] = await sql<{ n: number }[]>`select count(*)::int as n from delivery_queue where endpoint_id = ${healthy} and parked`;
    expect(after!.n).toBe(before!.n - 10);
  });
});

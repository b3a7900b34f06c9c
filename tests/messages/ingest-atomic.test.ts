import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, type Api } from "../helpers/api";
import { consumerWithEndpoints } from "../helpers/fixtures";
import { getSql } from "../../lib/db/client";

/**
 * A message, its deliveries and their queue rows are written together or not at all, whichever way
 * ingest writes them: as one statement (no key, no event id: POST /messages's usual call) or in a
 * transaction with its idempotency key. A queue row that cannot be written (here a trigger refuses
 * the second endpoint's) must leave no message and no delivery behind.
 */
let api: Api;
let consumer: { uid: string; consumerId: string; endpoints: { id: string }[] };
beforeAll(async () => {
  api = await apiClient();
  consumer = await consumerWithEndpoints(api, ["http://127.0.0.1:9/a", "http://127.0.0.1:9/b"]);
  const refused = consumer.endpoints.map((e) => e.id).sort()[1]!;
  await getSql().unsafe(`
    create function refuse_queue_row() returns trigger language plpgsql as $$
    begin
      if new.endpoint_id = '${refused}' then raise exception 'queue row refused'; end if;
      return new;
    end $$;
    create trigger refuse_queue_row before insert on delivery_queue for each row execute function refuse_queue_row()`);
});
afterAll(async () => {
  await getSql().unsafe(`drop trigger if exists refuse_queue_row on delivery_queue; drop function if exists refuse_queue_row()`);
});

async function counts() {
  const [row] = await getSql()<{ messages: number; deliveries: number; queued: number; keys: number }[]>`
    select (select count(*)::int from messages where consumer_id = ${consumer.consumerId}) as messages,
           (select count(*)::int from deliveries where consumer_id = ${consumer.consumerId}) as deliveries,
           (select count(*)::int from delivery_queue where consumer_id = ${consumer.consumerId}) as queued,
           (select count(*)::int from idempotency_keys where key = 'atomic-key') as keys`;
  return row!;
}

describe("ingest when a queue row cannot be written", () => {
  it.each([
    ["without a key (one statement)", {}],
    ["with an Idempotency-Key (a transaction)", { "idempotency-key": "atomic-key" }],
  ])("%s writes nothing", async (_, headers) => {
    const res = await api.post("/api/v1/messages", { consumer: consumer.uid, event_type: "invoice.paid", payload: { n: 1 } }, headers);
    expect(res.status).toBe(500);
    expect(await counts()).toEqual({ messages: 0, deliveries: 0, queued: 0, keys: 0 });
  });
});

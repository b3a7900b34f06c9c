import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inTransaction } from "../../lib/context";
import { createSql, getSql } from "../../lib/db/client";
import { ingestMessages, type IngestItem } from "../../lib/messages/create-message";
import { ctxOver } from "../../lib/open-ctx";
import { apiClient } from "../helpers/api";
import { consumerWithEndpoints } from "../helpers/fixtures";

/**
 * Ingest's foreign-key checks into the partitioned deliveries and messages run on generic plans
 * (plan_cache_mode forced for the write's own transaction, lib/messages/write-messages.ts): in effect while the
 * queue rows are written, and gone after — never on a pooled connection's next request, never for
 * the rest of a caller's transaction.
 */
const one = createSql(process.env.DATABASE_URL!, { max: 1, name: "plan-mode" });
const ctx = ctxOver(one);
let uid: string;

beforeAll(async () => {
  ({ uid } = await consumerWithEndpoints(await apiClient(), ["http://127.0.0.1:9/a", "http://127.0.0.1:9/b"]));
  // What the plan cache mode is when each queue row is written.
  await getSql().unsafe(`
    create table seen_plan_modes (mode text);
    create function record_plan_mode() returns trigger language plpgsql as $$
    begin insert into seen_plan_modes values (current_setting('plan_cache_mode')); return new; end $$;
    create trigger record_plan_mode before insert on delivery_queue for each row execute function record_plan_mode()`);
});
afterAll(async () => {
  await getSql().unsafe(`drop trigger if exists record_plan_mode on delivery_queue; drop function if exists record_plan_mode(); drop table if exists seen_plan_modes`);
  await one.end();
});

async function seen(): Promise<string[]> {
  const rows = await getSql()<{ mode: string }[]>`delete from seen_plan_modes returning mode`;
  return rows.map((r) => r.mode);
}

const item = (n: number, idempotencyKey?: string): IngestItem => ({ input: { consumer: uid, event_type: "invoice.paid", payload: { n } } as IngestItem["input"], idempotencyKey });

describe("ingest's plan cache mode", () => {
  it.each([
    ["as one statement", undefined],
    ["in its own transaction (a key)", "plan-mode-key"],
  ])("is forced generic for the write %s, and back to the default after it on the same connection", async (_, key) => {
    const [result] = await ingestMessages({ ctx, items: [item(1, key)] });
    expect(result).toHaveProperty("message");
    expect(await seen()).toEqual(["force_generic_plan", "force_generic_plan"]);
    expect((await one`select current_setting('plan_cache_mode') as mode`)[0]!.mode).toBe("auto");
  });

  it("is left alone in a caller's transaction", async () => {
    await inTransaction(ctx, async (tx) => {
      await ingestMessages({ ctx: tx, items: [item(2)] });
      expect((await tx.sql`select current_setting('plan_cache_mode') as mode`)[0]!.mode).toBe("auto");
    });
    expect(await seen()).toEqual(["auto", "auto"]);
  });
});

import { afterAll, describe, expect, it } from "vitest";
import { createSql } from "../../lib/db/client";
import { migrateDatabase } from "../../lib/db/migrate";
import { newId } from "../../lib/ids";

/**
 * Migration 0025: the endpoint URLs endpoint.created kept before this release (audit events hold
 * ids, never URLs) are removed from the audit log, the rest of every event as it was. The file's
 * database is brought to the schema of 0022, given such events, and migrated as usual.
 */
const url = process.env.DATABASE_URL!;
const sql = createSql(url, { max: 1, name: "audit-urls-migration" });

afterAll(async () => {
  await sql.end();
});

describe("migration 0025", () => {
  it("removes the URL endpoint.created kept, and nothing else", async () => {
    await sql.unsafe("drop schema public cascade; create schema public; drop schema if exists graphile_worker cascade; drop schema if exists drizzle cascade");
    await migrateDatabase(url, { upTo: 22 });
    const event = (action: string, data: Record<string, unknown>) => ({
      id: newId("audit"),
      actor_type: "api_key",
      actor_id: "key_x",
      action,
      target_type: "endpoint",
      target_id: newId("endpoint"),
      data: sql.json(data as never),
    });
    const rows = [
      event("endpoint.created", { url: "https://hooks.example.com/customer-42" }),
      event("endpoint.created", { url: "https://hooks.example.com/customer-43", consumer_id: "con_portal" }),
      event("endpoint.updated", { fields: ["url"] }),
    ];
    for (const row of rows) await sql`insert into audit_events ${sql(row)}`;

    await migrateDatabase(url);
    const after = await sql<{ id: string; action: string; data: unknown }[]>`select id, action, data from audit_events order by id`;
    expect(after).toEqual([
      { id: rows[0]!.id, action: "endpoint.created", data: {} },
      { id: rows[1]!.id, action: "endpoint.created", data: { consumer_id: "con_portal" } },
      { id: rows[2]!.id, action: "endpoint.updated", data: { fields: ["url"] } },
    ]);
  });
});

import { beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { getSql } from "../../lib/db/client";
import { newId } from "../../lib/ids";
import { recoveryItemsCsv } from "../../lib/recoveries/queries";
import { GET as exportItems } from "../../app/api/v1/recoveries/[id]/items/route";
import { apiClient, call, type Api } from "../helpers/api";
import { consumerWithEndpoint } from "../helpers/fixtures";
import { holdTransaction } from "../helpers/held-transaction";
import { APP_ORIGIN } from "../helpers/origin";
import { waitFor } from "../helpers/receiver";
import { openCtx } from "../../lib/open-ctx";

// The web process's default pool: ten connections on the raw client the export reads with.
process.env.DATABASE_POOL_SIZE = "10";

const ITEMS = 3500;
let api: Api;
let runId: string;

beforeAll(async () => {
  api = await apiClient();
  const { endpointId } = await consumerWithEndpoint(api, "https://hooks.example.test/export", { consumer: { uid: "exporter", name: "Exporter" } });
  runId = newId("recovery");
  // A finished run of a few thousand items, written directly: the export is what is under test.
  await getSql().begin(async (tx) => {
    await tx`
      insert into recoveries (id, consumer_id, endpoint_id, state, scope, options, expected, succeeded, created_by_type)
      select ${runId}, consumer_id, id, 'completed', ${tx.json({ since: "2026-01-01T00:00:00Z", until: "2026-01-02T00:00:00Z", event_types: null, statuses: ["failed"], include_never_attempted: false })},
             ${tx.json({ rate_per_second: 10, canary: 10, stop_if_failure_ratio: 0.5 })}, ${ITEMS}, ${ITEMS}, 'api_key'
      from endpoints where id = ${endpointId}`;
    await tx`
      insert into recovery_items (recovery_id, seq, message_id, endpoint_id, delivery_id, consumer_id, outcome, status_code)
      select ${runId}, n, 'msg_' || lpad(n::text, 6, '0'), ${endpointId}, 'dlv_' || n, r.consumer_id, 'succeeded', 200
      from generate_series(1, ${ITEMS}) n, recoveries r where r.id = ${runId}`;
  });
});

/** GET /api/v1/recoveries/{id}/items?format=csv in-process, its body left for the caller to read (or not). */
async function startExport(id: string): Promise<Response> {
  const request = new Request(`${APP_ORIGIN}/api/v1/recoveries/${id}/items?format=csv`, { headers: { authorization: `Bearer ${api.key}` } });
  const response = await exportItems(request, { params: Promise.resolve({ id }) });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
  return response;
}

describe("the recovery items CSV export", () => {
  it("holds no connection while its client is not reading: ten stalled exports leave the pool to everyone else", async () => {
    const stalled: ReadableStreamDefaultReader<Uint8Array>[] = [];
    onTestFinished(async () => {
      await Promise.all(stalled.map((reader) => reader.cancel()));
    });
    for (let i = 0; i < 10; i++) {
      const reader = (await startExport(runId)).body!.getReader();
      stalled.push(reader);
      const first = await reader.read();
      expect(new TextDecoder().decode(first.value)).toMatch(/^delivery_id,message_id,/);
    }

    expect((await call("GET", "/api/health")).status).toBe(200);

    // With a cursor, each stalled export keeps one of the ten connections: this one never gets one.
    const text = await (await startExport(runId)).text();
    const lines = text.split("\r\n");
    expect(lines.pop()).toBe("");
    expect(lines[0]).toBe("delivery_id,message_id,endpoint_id,outcome,skip_reason,attempt_id,status_code,error,updated_at");
    const rows = lines.slice(1).map((line) => line.split(","));
    expect(rows).toHaveLength(ITEMS);
    expect(rows.map((row) => row[1])).toEqual(Array.from({ length: ITEMS }, (_, i) => `msg_${String(i + 1).padStart(6, "0")}`));
    expect(rows.every((row) => row[0] === `dlv_${Number(row[1]!.slice(4))}` && row[3] === "succeeded" && row[6] === "200")).toBe(true);

    // The stalled ones still read to the end, page by page, when their clients come back.
    const rest = stalled.pop()!;
    let count = 0;
    for (let chunk = await rest.read(); !chunk.done; chunk = await rest.read()) count += new TextDecoder().decode(chunk.value).split("\r\n").length - 1;
    expect(count).toBe(ITEMS);
  });

  it("pages with the filter applied, and answers another consumer's portal session 404", async () => {
    const ctx = openCtx({ type: "api_key" as const, id: "key_test" });
    await getSql()`update recovery_items set outcome = 'failed', error = 'boom, "quoted"' where recovery_id = ${runId} and seq % 700 = 0`;
    try {
      const text = await new Response(await recoveryItemsCsv(ctx, runId, { outcome: "failed" })).text();
      const lines = text.trimEnd().split("\r\n").slice(1);
      expect(lines).toHaveLength(5);
      expect(lines.every((line) => line.includes(`,"boom, ""quoted""",`))).toBe(true);
    } finally {
      await getSql()`update recovery_items set outcome = 'succeeded', error = null where recovery_id = ${runId}`;
    }
    const other = openCtx({ type: "portal" as const, id: "pss_x", consumerId: "con_someone_else", capabilities: [] });
    await expect(recoveryItemsCsv(other, runId, {})).rejects.toMatchObject({ status: 404 });
  });

  it("cuts an export off at its deadline, even in the middle of a page, and gives that page's connection back", async () => {
    const ctx = openCtx({ type: "api_key" as const, id: "key_test" });
    // The page query waits on this lock until the deadline cancels it.
    const held = await holdTransaction((tx) => tx`lock table recovery_items in access exclusive mode`);
    onTestFinished(() => held.commit());
    const reader = (await recoveryItemsCsv(ctx, runId, {}, { deadlineMs: 300 })).getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toMatch(/^delivery_id,/);
    await expect(reader.read()).rejects.toThrow(/longer than 300 ms and was cut off/);
    await waitFor(
      async () => {
        const [row] = await getSql()<{ n: number }[]>`
          select count(*)::int as n from pg_stat_activity
          where pid <> pg_backend_pid() and datname = current_database() and query like '%from recovery_items i join recoveries r%'
            and state = 'active'`;
        return row!.n === 0;
      },
      { what: "the canceled page query to stop waiting on its lock" },
    );
  });
});

import { beforeAll, describe, expect, it } from "vitest";
import { apiClient, type Api } from "../helpers/api";
import { createConsumer, sendMessage } from "../helpers/fixtures";

/** GET /messages?payload_contains: JSON containment (Postgres `@>`) over the payload as sent. */
let api: Api;
const ids: Record<string, string> = {};

const search = (value: unknown, extra = "") =>
  api.get(`/api/v1/messages?payload_contains=${encodeURIComponent(typeof value === "string" ? value : JSON.stringify(value))}${extra}`);
const found = (res: { body: { data: { id: string }[] } }) => res.body.data.map((m) => m.id).sort();

beforeAll(async () => {
  api = await apiClient();
  for (const uid of ["search-a", "search-b"]) await createConsumer(api, { uid });
  const send = async (name: string, consumer: string, payload: Record<string, unknown>) => {
    ids[name] = (await sendMessage(api, consumer, { payload })).id;
  };
  await send("paid", "search-a", { invoice: { id: "inv_1", status: "paid", lines: [{ sku: "A" }, { sku: "B" }] }, amount: 100 });
  await send("open", "search-a", { invoice: { id: "inv_2", status: "open", lines: [{ sku: "C" }] }, amount: 250 });
  await send("other", "search-b", { invoice: { id: "inv_1", status: "paid" }, amount: 100 });
});

describe("GET /messages?payload_contains", () => {
  it("finds the messages whose payload contains the value, top-level and nested", async () => {
    expect(found(await search({ amount: 100 }, "&consumer=search-a"))).toEqual([ids.paid]);
    expect(found(await search({ invoice: { status: "open" } }, "&consumer=search-a"))).toEqual([ids.open]);
    // Arrays match by containment of elements, at any depth.
    expect(found(await search({ invoice: { lines: [{ sku: "B" }] } }))).toEqual([ids.paid]);
    expect(found(await search({}, "&consumer=search-a"))).toEqual([ids.paid, ids.open].sort());
  });

  it("matches nothing when a value differs, a key is missing or the type differs", async () => {
    expect(found(await search({ amount: 999 }))).toEqual([]);
    expect(found(await search({ invoice: { status: "void" } }))).toEqual([]);
    expect(found(await search({ amount: "100" }))).toEqual([]);
    expect(found(await search({ nope: true }))).toEqual([]);
    expect(found(await search({ invoice: { lines: [{ sku: "Z" }] } }))).toEqual([]);
  });

  it("is scoped by consumer and combines with the other filters", async () => {
    expect(found(await search({ invoice: { id: "inv_1" } }))).toEqual([ids.paid, ids.other].sort());
    expect(found(await search({ invoice: { id: "inv_1" } }, "&consumer=search-b"))).toEqual([ids.other]);
    expect(found(await search({ invoice: { id: "inv_1" } }, "&consumer=search-a&event_type=other.type"))).toEqual([]);
    const paged = await search({ amount: 100 }, "&limit=1");
    expect(paged.body.data).toHaveLength(1);
    const next = await search({ amount: 100 }, `&limit=1&cursor=${paged.body.next_cursor}`);
    expect([paged.body.data[0].id, next.body.data[0].id].sort()).toEqual([ids.paid, ids.other].sort());
  });

  it.each([
    ["not JSON", "{amount:"],
    ["a scalar", "100"],
    ["a string", '"paid"'],
    ["null", "null"],
    ["too long", JSON.stringify({ pad: "x".repeat(5000) })],
  ])("answers %s with a 400 problem naming payload_contains", async (_, raw) => {
    const res = await search(raw);
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toContain("application/problem+json");
    expect(res.body.code).toBe("validation_failed");
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain("payload_contains");
  });
});

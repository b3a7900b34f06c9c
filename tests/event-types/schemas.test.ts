import { beforeAll, describe, expect, it } from "vitest";
import { getSql } from "../../lib/db/client";
import { apiClient, clientFor, expectProblem, type Api } from "../helpers/api";
import { consumerWithEndpoint, sendMessage } from "../helpers/fixtures";
import { portalSession } from "../helpers/portal";
import { waitFor } from "../helpers/receiver";

/** Event schemas as a contract (docs/delivery.md#event-schemas): versions, the checks when saved, enforcement at ingest. */
let api: Api;
let consumer: string;
beforeAll(async () => {
  api = await apiClient();
  consumer = (await consumerWithEndpoint(api, "http://127.0.0.1:9/schemas-hook")).uid;
});
const sql = () => getSql();

const INVOICE = {
  type: "object",
  required: ["id", "amount", "customer"],
  properties: {
    id: { type: "string", pattern: "^inv_[a-z0-9]+$" },
    amount: { type: "integer", minimum: 0 },
    customer: { type: "object", required: ["email"], properties: { email: { type: "string" }, tags: { type: "array", items: { type: "string" } } } },
  },
};
const GOOD = { id: "inv_42", amount: 1200, customer: { email: "a@example.com" } };

let n = 0;
/** A new event type of its own name (so each test's cache entries are its own), made through the API. */
async function eventType(fields: Record<string, unknown> = {}): Promise<string> {
  const name = `schemas.t${++n}`;
  const res = await api.post("/api/v1/event-types", { name, ...fields });
  expect(res.status, res.text).toBe(201);
  return name;
}
const send = (event_type: string, payload: unknown) => api.post("/api/v1/messages", { consumer, event_type, payload });
const messageRow = async (id: string) => (await sql()<{ schema_version: number | null; schema_violations: unknown }[]>`select schema_version, schema_violations from messages where id = ${id}`)[0]!;

describe("versions", () => {
  it("starts at 1 with a schema, 0 without; a changed schema is the next version and the old one is kept; an equal one is no change", async () => {
    expect((await api.get(`/api/v1/event-types/${await eventType()}`)).body).toMatchObject({ schema: null, schema_version: 0, enforcement: "off" });
    const name = await eventType({ schema: INVOICE, example: GOOD });
    expect((await api.get(`/api/v1/event-types/${name}`)).body).toMatchObject({ schema: INVOICE, schema_version: 1, enforcement: "off", example: GOOD });

    const v2 = { ...INVOICE, properties: { ...INVOICE.properties, note: { type: "string" } } };
    expect((await api.patch(`/api/v1/event-types/${name}`, { schema: v2 })).body).toMatchObject({ schema: v2, schema_version: 2 });
    // The same schema with its keys in another order, and a change of the description only: no new version.
    const reordered = Object.fromEntries(Object.entries(v2).reverse());
    expect((await api.patch(`/api/v1/event-types/${name}`, { schema: reordered, description: "Paid." })).body).toMatchObject({ schema_version: 2, description: "Paid." });
    expect((await api.patch(`/api/v1/event-types/${name}`, { schema: null })).body).toMatchObject({ schema: null, schema_version: 3 });

    const list = await api.get(`/api/v1/event-types/${name}/schemas`);
    expect(list.body.data.map((v: { version: number; schema: unknown }) => [v.version, v.schema])).toEqual([
      [3, null],
      [2, v2],
      [1, INVOICE],
    ]);
    const page = await api.get(`/api/v1/event-types/${name}/schemas?limit=2`);
    expect(page.body.data.map((v: { version: number }) => v.version)).toEqual([3, 2]);
    const next = await api.get(`/api/v1/event-types/${name}/schemas?limit=2&cursor=${page.body.next_cursor}`);
    expect(next.body).toMatchObject({ data: [{ version: 1 }], next_cursor: null });
    expect((await api.get(`/api/v1/event-types/${name}/schemas/1`)).body).toMatchObject({ event_type: name, version: 1, schema: INVOICE });
    expectProblem(await api.get(`/api/v1/event-types/${name}/schemas/4`), 404, "not_found");
    expectProblem(await api.get(`/api/v1/event-types/${name}/schemas/one`), 404, "not_found");
    expectProblem(await api.get(`/api/v1/event-types/${name}/schemas?cursor=bogus`), 400, "validation_failed");
    expectProblem(await api.get(`/api/v1/event-types/nope.nope/schemas`), 404, "not_found");
  });

  it("answers a version as TypeScript named for the event type, and 404 for the version that removed the schema", async () => {
    const name = await eventType({ schema: { ...INVOICE, title: "Whatever", description: "An invoice was paid." } });
    const ts = await api.get(`/api/v1/event-types/${name}/schemas/1/typescript`);
    expect(ts.status, ts.text).toBe(200);
    expect(ts.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(ts.headers.get("content-disposition")).toBe(`attachment; filename="${name}.v1.d.ts"`);
    expect(ts.text).toContain(`export interface SchemasT${n} {`);
    expect(ts.text).toMatch(/amount: number;/);
    expect(ts.text).toMatch(/tags\?: string\[\];/);
    expect(ts.text).toContain("An invoice was paid.");
    await api.patch(`/api/v1/event-types/${name}`, { schema: null });
    expectProblem(await api.get(`/api/v1/event-types/${name}/schemas/2/typescript`), 404, "not_found");
  });
});

describe("what is checked when saved", () => {
  it.each([
    ["a schema the 2020-12 meta-schema refuses", { type: "strin" }, "/schema/type", /must be equal to one of the allowed values/],
    ["another draft's $schema", { $schema: "http://json-schema.org/draft-07/schema#" }, "/schema/$schema", /2020-12/],
    ["a remote $ref", { properties: { a: { $ref: "https://example.com/a.json" } } }, "/schema/properties/a/$ref", /never fetched/],
    ["a pattern RE2 cannot run (a backreference)", { properties: { a: { type: "string", pattern: "(a)\\1" } } }, "/schema/properties/a/pattern", /RE2/],
    ["a lookahead in patternProperties", { patternProperties: { "^(?=x)": {} } }, "/schema/patternProperties/^(?=x)", /RE2/],
    ["uniqueItems without a small maxItems", { type: "array", uniqueItems: true }, "/schema/uniqueItems", /maxItems/],
    ["a schema over 32 KiB", { description: "x".repeat(40_000) }, "/schema", /at most 32768/],
    ["a schema nested 40 deep", JSON.parse(`${'{"not":'.repeat(40)}{}${"}".repeat(40)}`), expect.stringMatching(/^\/schema(\/not)+$/), /more than 32 deep/],
  ])("refuses %s with 422 invalid_schema and its pointer, on create and on update, and changes nothing", async (_what, schema, pointer, message) => {
    const name = `schemas.bad${++n}`;
    const created = await api.post("/api/v1/event-types", { name, schema });
    expectProblem(created, 422, "invalid_schema");
    expect(created.body.errors[0]).toMatchObject({ path: "schema", pointer, message: expect.stringMatching(message) });
    expectProblem(await api.get(`/api/v1/event-types/${name}`), 404, "not_found");

    const existing = await eventType({ schema: INVOICE });
    expectProblem(await api.patch(`/api/v1/event-types/${existing}`, { schema, description: "changed?" }), 422, "invalid_schema");
    expect((await api.get(`/api/v1/event-types/${existing}`)).body).toMatchObject({ schema: INVOICE, schema_version: 1, description: "" });
    expect((await api.get(`/api/v1/event-types/${existing}/schemas`)).body.data).toHaveLength(1);
  });

  it("refuses an example the schema rejects (422 invalid_example, pointers into the example), and a schema its example no longer matches", async () => {
    const bad = await api.post("/api/v1/event-types", { name: `schemas.bad${++n}`, schema: INVOICE, example: { id: "INV", amount: -1, customer: {} } });
    expectProblem(bad, 422, "invalid_example");
    expect(bad.body.errors).toEqual(
      expect.arrayContaining([
        { path: "example", pointer: "/example/id", message: expect.stringContaining("must match pattern") },
        { path: "example", pointer: "/example/amount", message: "must be >= 0" },
        { path: "example", pointer: "/example/customer", message: 'must have required property \'email\': "email"' },
      ]),
    );
    const name = await eventType({ schema: INVOICE, example: GOOD });
    expectProblem(await api.patch(`/api/v1/event-types/${name}`, { example: { id: 7 } }), 422, "invalid_example");
    const stricter = { ...INVOICE, required: [...INVOICE.required, "paid_at"] };
    const refused = await api.patch(`/api/v1/event-types/${name}`, { schema: stricter });
    expectProblem(refused, 422, "invalid_example");
    expect(refused.body.errors[0].pointer).toBe("/example");
    // Both at once, or the example removed, is fine.
    expect((await api.patch(`/api/v1/event-types/${name}`, { schema: stricter, example: { ...GOOD, paid_at: "now" } })).body.schema_version).toBe(2);
    expect((await api.patch(`/api/v1/event-types/${name}`, { schema: INVOICE, example: null })).body).toMatchObject({ schema_version: 3, example: null });
  });

  it("refuses an unknown enforcement, and any field it does not know", async () => {
    const name = await eventType({ schema: INVOICE });
    expectProblem(await api.patch(`/api/v1/event-types/${name}`, { enforcement: "strict" }), 422, "validation_failed", "enforcement");
    expectProblem(await api.post("/api/v1/event-types", { name: `schemas.bad${++n}`, enforcement: true }), 422, "validation_failed", "enforcement");
    expectProblem(await api.patch(`/api/v1/event-types/${name}`, { schema_version: 9 }), 422, "validation_failed");
    expect((await api.get(`/api/v1/event-types/${name}`)).body).toMatchObject({ schema_version: 1, enforcement: "off" });
  });

  it("runs patterns in linear time: a pattern that backtracks exponentially in JavaScript is checked on a long payload at once", async () => {
    const name = await eventType({ schema: { type: "object", properties: { s: { type: "string", pattern: "^(a+)+$" } } }, enforcement: "reject" });
    // 50,000 a's and a b: V8's backtracking would not finish within the test's time; RE2 is linear.
    const res = await send(name, { s: `${"a".repeat(50_000)}b` });
    expectProblem(res, 422, "payload_invalid");
    expect(res.body.errors[0]).toMatchObject({ path: "payload", pointer: "/s" });
  });
});

describe("enforcement at ingest", () => {
  it("reject: refuses an invalid payload with 422 payload_invalid and each fault's pointer, writes nothing, and accepts a valid one marked with the version", async () => {
    const name = await eventType({ schema: INVOICE, enforcement: "reject" });
    const before = (await sql()`select count(*)::int as n from messages where event_type = ${name}`)[0]!.n;
    const res = await send(name, { id: "nope", amount: "12", customer: { email: 5 }, extra: true });
    expectProblem(res, 422, "payload_invalid");
    expect(res.body.detail).toMatch(/version 1/);
    expect(res.body.errors).toEqual([
      { path: "payload", pointer: "/id", message: 'must match pattern "^inv_[a-z0-9]+$"' },
      { path: "payload", pointer: "/amount", message: "must be integer" },
      { path: "payload", pointer: "/customer/email", message: "must be string" },
    ]);
    expect((await sql()`select count(*)::int as n from messages where event_type = ${name}`)[0]!.n).toBe(before);
    const ok = await sendMessage(api, consumer, { event_type: name, payload: GOOD });
    expect(await messageRow(ok.id)).toEqual({ schema_version: 1, schema_violations: null });
    expect((await api.get(`/api/v1/messages/${ok.id}`)).body).toMatchObject({ schema_version: 1, schema_violations: null });
  });

  it("reject: caps the faults reported at 20, and a whole-payload fault points at \"\"", async () => {
    const name = await eventType({ schema: { type: "object", additionalProperties: { type: "integer" }, maxProperties: 100 }, enforcement: "reject" });
    const res = await send(name, Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`k${i}`, "x"])));
    expect(res.body.errors).toHaveLength(20);
    const whole = await eventType({ schema: { type: "object", minProperties: 2 }, enforcement: "reject" });
    expect((await send(whole, { a: 1 })).body.errors).toEqual([{ path: "payload", pointer: "", message: "must NOT have fewer than 2 properties" }]);
  });

  it("reject in a batch: the invalid item alone is refused, the others are written", async () => {
    const name = await eventType({ schema: INVOICE, enforcement: "reject" });
    const res = await api.post("/api/v1/messages/batch", {
      messages: [
        { consumer, event_type: name, payload: GOOD },
        { consumer, event_type: name, payload: { ...GOOD, amount: -5 } },
        { consumer, event_type: "schemas.unknown", payload: { anything: true } },
      ],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data[0]).toMatchObject({ status: 202 });
    expect(res.body.data[1]).toEqual({
      status: 422,
      error: { code: "payload_invalid", detail: expect.stringContaining("/amount must be >= 0"), errors: [{ path: "payload", pointer: "/amount", message: "must be >= 0" }] },
    });
    expect(res.body.data[2]).toMatchObject({ status: 202 });
    expect(await messageRow(res.body.data[0].message.id)).toEqual({ schema_version: 1, schema_violations: null });
    expect(await messageRow(res.body.data[2].message.id)).toEqual({ schema_version: null, schema_violations: null });
  });

  it("warn: accepts an invalid payload, marks it with its faults, and lists it under schema_invalid=true", async () => {
    const name = await eventType({ schema: INVOICE, enforcement: "warn" });
    const bad = await sendMessage(api, consumer, { event_type: name, payload: { ...GOOD, amount: 1.5 } });
    const good = await sendMessage(api, consumer, { event_type: name, payload: GOOD });
    expect(bad.deliveries).toBe(1);
    const detail = (await api.get(`/api/v1/messages/${bad.id}`)).body;
    expect(detail).toMatchObject({ schema_version: 1, schema_violations: [{ pointer: "/amount", message: "must be integer" }] });
    const invalid = (await api.get(`/api/v1/messages?event_type=${name}&schema_invalid=true`)).body.data;
    expect(invalid.map((m: { id: string }) => m.id)).toEqual([bad.id]);
    expect(invalid[0].schema_violations).toEqual([{ pointer: "/amount", message: "must be integer" }]);
    const valid = (await api.get(`/api/v1/messages?event_type=${name}&schema_invalid=false`)).body.data;
    expect(valid.map((m: { id: string }) => m.id)).toEqual([good.id]);
    expectProblem(await api.get(`/api/v1/messages?schema_invalid=maybe`), 400, "validation_failed", "schema_invalid");
  });

  it("off, or no schema: nothing is checked or marked", async () => {
    const off = await eventType({ schema: INVOICE });
    const m = await sendMessage(api, consumer, { event_type: off, payload: { not: "an invoice" } });
    expect(await messageRow(m.id)).toEqual({ schema_version: null, schema_violations: null });
    const none = await eventType({ enforcement: "reject" });
    expect(await messageRow((await sendMessage(api, consumer, { event_type: none, payload: { any: 1 } })).id)).toEqual({ schema_version: null, schema_violations: null });
  });

  it("a change made through this process reaches its next message at once: enforcement on, the schema changed, enforcement off", async () => {
    const name = await eventType({ schema: INVOICE });
    const wrong = { ...GOOD, amount: "lots" };
    await sendMessage(api, consumer, { event_type: name, payload: wrong });
    await api.patch(`/api/v1/event-types/${name}`, { enforcement: "reject" });
    expectProblem(await send(name, wrong), 422, "payload_invalid");
    await api.patch(`/api/v1/event-types/${name}`, { schema: { type: "object" } });
    expect(await messageRow((await sendMessage(api, consumer, { event_type: name, payload: wrong })).id)).toEqual({ schema_version: 2, schema_violations: null });
    await api.patch(`/api/v1/event-types/${name}`, { schema: INVOICE, enforcement: "off" });
    expect(await messageRow((await sendMessage(api, consumer, { event_type: name, payload: wrong })).id)).toEqual({ schema_version: null, schema_violations: null });
  });

  it("a change written by another process (here, straight to the row) is read within the cache's 500 ms", async () => {
    const name = await eventType({ schema: INVOICE });
    await sendMessage(api, consumer, { event_type: name, payload: {} });
    await sql()`update event_types set enforcement = 'reject' where name = ${name}`;
    // The wait is a loaded machine's requests, not the cache's 500 ms: a cache that never read the
    // row again would fail it all the same.
    await waitFor(async () => (await send(name, {})).status === 422, { what: "the other process's change", timeout: 30_000 });
  });

  it("test sends are not checked", async () => {
    const name = await eventType({ schema: INVOICE, enforcement: "reject" });
    const { endpointId } = await consumerWithEndpoint(api, "http://127.0.0.1:9/schemas-test-send");
    const res = await api.post(`/api/v1/endpoints/${endpointId}/test`, { event_type: name, payload: { not: "valid" } });
    expect(res.status, res.text).toBe(202);
  });
});

describe("who may read and change the catalogue", () => {
  it("a portal session reads the event type, its versions and their TypeScript, and may not change it", async () => {
    const name = await eventType({ schema: INVOICE });
    const client = clientFor((await portalSession(api, consumer)).token);
    expect((await client.get(`/api/v1/event-types/${name}`)).body.schema_version).toBe(1);
    expect((await client.get(`/api/v1/event-types/${name}/schemas`)).body.data).toHaveLength(1);
    expect((await client.get(`/api/v1/event-types/${name}/schemas/1/typescript`)).status).toBe(200);
    expectProblem(await client.patch(`/api/v1/event-types/${name}`, { enforcement: "reject" }), 403, "forbidden");
    expect((await api.get(`/api/v1/event-types/${name}`)).body.enforcement).toBe("off");
  });
});

import { beforeAll, describe, expect, it } from "vitest";
import { apiClient, call, expectProblem, type Api, type ApiResponse } from "../helpers/api";
import { createConsumer, createEndpoint } from "../helpers/fixtures";
import { getDb } from "../../lib/db/client";
import { revokeApiKey } from "../../lib/api-keys";
import { consumers } from "../../lib/db/schema";
import { systemCtx } from "../../lib/open-ctx";

let api: Api;
beforeAll(async () => {
  api = await apiClient();
});

/** A problem+json answer with every member of the error model. */
const problem = (res: ApiResponse, status: number, code: string) => {
  expectProblem(res, status, code);
  expect(res.body).toMatchObject({ status, code, title: expect.any(String), detail: expect.any(String), type: expect.any(String) });
};

describe("authentication", () => {
  it("refuses a missing, unknown or revoked key with 401 problem+json", async () => {
    problem(await call("GET", "/api/v1/consumers"), 401, "unauthorized");
    problem(await call("GET", "/api/v1/consumers", { key: "sk_nope" }), 401, "unauthorized");
    problem(await call("GET", "/api/v1/consumers", { headers: { authorization: "Basic abc" } }), 401, "unauthorized");
    const other = await apiClient();
    expect((await other.get("/api/v1/consumers")).status).toBe(200);
    await revokeApiKey({ ctx: systemCtx(), input: { ref: other.key.slice(0, 10) } });
    problem(await other.get("/api/v1/consumers"), 401, "unauthorized");
  });

  it("answers unknown API paths with a 404 problem", async () => {
    problem(await api.get("/api/v1/nope/nothing"), 404, "not_found");
  });
});

describe("consumers", () => {
  it("creates, reads by id and uid, updates and deletes", async () => {
    const created = await api.post("/api/v1/consumers", { uid: "customer_123", name: "Acme", metadata: { plan: "pro" }, alert_emails: ["ops@acme.test"] });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^con_[0-9a-z]{26}$/),
      uid: "customer_123",
      name: "Acme",
      metadata: { plan: "pro" },
      alert_emails: ["ops@acme.test"],
      weight: 1,
      created_at: expect.stringMatching(/Z$/),
      updated_at: expect.any(String),
    });
    const byId = await api.get(`/api/v1/consumers/${created.body.id}`);
    const byUid = await api.get("/api/v1/consumers/customer_123");
    expect(byId.body).toEqual(created.body);
    expect(byUid.body).toEqual(created.body);

    const patched = await api.patch("/api/v1/consumers/customer_123", { name: "Acme Inc", alert_emails: [] });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: "Acme Inc", alert_emails: [], metadata: { plan: "pro" } });
    // A weight: its share of the engine beside other consumers with due work, 1 to 100.
    expect((await api.patch("/api/v1/consumers/customer_123", { weight: 40 })).body).toMatchObject({ weight: 40 });
    for (const weight of [0, 101, 2.5, "3", null]) {
      problem(await api.patch("/api/v1/consumers/customer_123", { weight }), 422, "validation_failed");
    }
    expect((await api.get("/api/v1/consumers/customer_123")).body.weight).toBe(40);

    expect((await api.del("/api/v1/consumers/customer_123")).status).toBe(204);
    problem(await api.get(`/api/v1/consumers/${created.body.id}`), 404, "not_found");
  });

  it("records creation and deletion in the audit log, keeping only the uid", async () => {
    const created = await api.post("/api/v1/consumers", {
      uid: "audited_consumer",
      name: "Private Name KK",
      metadata: { plan: "secret-plan-zz" },
      alert_emails: ["owner-zz@acme.test"],
    });
    expect(created.status).toBe(201);
    await createEndpoint(api, created.body.id, "https://hooks.acme.test/audited-zz");
    expect((await api.del(`/api/v1/consumers/${created.body.id}`)).status).toBe(204);

    const events = ((await api.get(`/api/v1/audit-events?target_id=${created.body.id}`)).body.data as any[]).reverse();
    expect(events).toEqual([
      {
        id: expect.any(String),
        actor: { type: "api_key", id: expect.any(String), name: "test", deleted: false },
        action: "consumer.created",
        target_type: "consumer",
        target_id: created.body.id,
        data: { uid: "audited_consumer" },
        created_at: expect.any(String),
        // Named as it is now: erased, it is its id alone.
        target: { type: "consumer", id: created.body.id, name: null, detail: null, deleted: true },
      },
      expect.objectContaining({ action: "consumer.deleted", target_type: "consumer", target_id: created.body.id, data: { uid: "audited_consumer" } }),
    ]);
    const text = JSON.stringify(events);
    for (const kept of ["Private Name KK", "secret-plan-zz", "owner-zz@acme.test", "@"]) expect(text).not.toContain(kept);

    // A refused creation leaves no event behind.
    problem(await api.post("/api/v1/consumers", { uid: "audited_consumer_2", name: "One", alert_emails: ["nope"] }), 422, "validation_failed");
    expect((await api.post("/api/v1/consumers", { uid: "audited_twice", name: "One" })).status).toBe(201);
    problem(await api.post("/api/v1/consumers", { uid: "audited_twice", name: "Two" }), 409, "uid_taken");
    const creations = (await api.get("/api/v1/audit-events?action=consumer.created&limit=250")).body.data as any[];
    expect(creations.filter((e) => e.data.uid === "audited_twice")).toHaveLength(1);
    expect(creations.some((e) => e.data.uid === "audited_consumer_2")).toBe(false);
  });

  it("refuses a duplicate uid with 409 uid_taken and writes nothing", async () => {
    await createConsumer(api, { uid: "dup", name: "One" });
    problem(await api.post("/api/v1/consumers", { uid: "dup", name: "Two" }), 409, "uid_taken");
    const page = await api.get("/api/v1/consumers?q=dup");
    expect(page.body.data).toHaveLength(1);
    expect(page.body.data[0].name).toBe("One");
  });

  it("answers bad bodies with 400/422 problems and changes nothing", async () => {
    const before = (await getDb().select().from(consumers)).length;
    problem(await call("POST", "/api/v1/consumers", { key: api.key, rawBody: "{not json" }), 400, "invalid_json");
    problem(await call("POST", "/api/v1/consumers", { key: api.key, rawBody: "" }), 400, "invalid_json");
    const wrongType = await api.post("/api/v1/consumers", { uid: 42, name: ["x"] });
    problem(wrongType, 422, "validation_failed");
    expect(wrongType.body.errors).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: "uid" }), expect.objectContaining({ path: "name" })]),
    );
    problem(await api.post("/api/v1/consumers", { uid: "x", name: "x", surprise: true }), 422, "validation_failed");
    problem(await api.post("/api/v1/consumers", { uid: "has space", name: "x" }), 422, "validation_failed");
    problem(await api.post("/api/v1/consumers", { uid: "ok", name: "x", alert_emails: ["not-an-email"] }), 422, "validation_failed");
    problem(await api.post("/api/v1/consumers", []), 422, "validation_failed");
    problem(await api.patch("/api/v1/consumers/nobody", { name: "x" }), 404, "not_found");
    expect((await getDb().select().from(consumers)).length).toBe(before);
  });

  it("paginates newest first with stable keyset cursors", async () => {
    for (let i = 0; i < 7; i++) await createConsumer(api, { uid: `page_${i}`, name: `Page ${i}` });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: any = await api.get(`/api/v1/consumers?q=page_&limit=3${cursor ? `&cursor=${cursor}` : ""}`);
      expect(res.status).toBe(200);
      seen.push(...res.body.data.map((c: { uid: string }) => c.uid));
      cursor = res.body.next_cursor;
      // Inserting while paging must neither repeat nor skip rows.
      if (seen.length === 3) await createConsumer(api, { uid: "page_new", name: "New" });
    } while (cursor);
    expect(seen).toEqual(["page_6", "page_5", "page_4", "page_3", "page_2", "page_1", "page_0"]);
  });

  it("refuses a limit out of range and a garbage cursor", async () => {
    problem(await api.get("/api/v1/consumers?limit=0"), 400, "validation_failed");
    problem(await api.get("/api/v1/consumers?limit=251"), 400, "validation_failed");
    problem(await api.get("/api/v1/consumers?limit=abc"), 400, "validation_failed");
    problem(await api.get("/api/v1/consumers?cursor=garbage"), 400, "validation_failed");
    expect((await api.get("/api/v1/consumers?limit=250")).status).toBe(200);
  });
});

describe("event types", () => {
  it("creates and lists event types; a duplicate name is a 409", async () => {
    const created = await api.post("/api/v1/event-types", { name: "invoice.paid", description: "An invoice was paid", schema: { type: "object" } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "invoice.paid", description: "An invoice was paid", schema: { type: "object" } });
    problem(await api.post("/api/v1/event-types", { name: "invoice.paid" }), 409, "event_type_exists");
    problem(await api.post("/api/v1/event-types", { name: "bad name!" }), 422, "validation_failed");
    const list = await api.get("/api/v1/event-types");
    expect(list.body.data.map((e: { name: string }) => e.name)).toContain("invoice.paid");
    expect(list.body.next_cursor).toBeNull();
  });
});

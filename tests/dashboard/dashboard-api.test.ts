import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../lib/db/client";
import { apiKeys, auditEvents, consumers, operators } from "../../lib/db/schema";
import { apiClient, call } from "../helpers/api";
import { APP_ORIGIN } from "../helpers/origin";
import { operatorClient, sessionCookie } from "../helpers/session";

describe("API keys over the API", () => {
  it("creates a key shown once, lists it without its secret, and revokes it for good", async () => {
    const admin = await apiClient();
    const created = await admin.post("/api/v1/api-keys", { name: "ci" });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: expect.stringMatching(/^key_/), name: "ci", last_used_at: null });
    const key = created.body.key as string;
    expect(key).toMatch(/^sk_/);
    expect(created.body.prefix).toBe(key.slice(0, 10));

    const list = await admin.get("/api/v1/api-keys");
    const listed = list.body.data.find((k: any) => k.id === created.body.id);
    expect(listed).toEqual({ id: created.body.id, name: "ci", prefix: key.slice(0, 10), created_at: created.body.created_at, last_used_at: null });
    expect(list.text).not.toContain(key);

    expect((await call("GET", "/api/v1/consumers", { key })).status).toBe(200);
    expect((await admin.get("/api/v1/api-keys")).body.data.find((k: any) => k.id === created.body.id).last_used_at).not.toBeNull();
    expect((await admin.del(`/api/v1/api-keys/${created.body.id}`)).status).toBe(204);
    expect((await call("GET", "/api/v1/consumers", { key })).status).toBe(401);
    expect((await admin.get("/api/v1/api-keys")).body.data.map((k: any) => k.id)).not.toContain(created.body.id);
    const again = await admin.del(`/api/v1/api-keys/${created.body.id}`);
    expect(again.status).toBe(404);
    expect(again.headers.get("content-type")).toBe("application/problem+json");
  });

  it("refuses a nameless key with a 422 and writes nothing", async () => {
    const admin = await apiClient();
    const before = (await getDb().select().from(apiKeys)).length;
    const res = await admin.post("/api/v1/api-keys", { name: "" });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("validation_failed");
    expect((await getDb().select().from(apiKeys)).length).toBe(before);
  });
});

describe("the dashboard session as an API credential", () => {
  it("lets an admin read and change from the app's own origin", async () => {
    const admin = await operatorClient("admin");
    expect((await admin.get("/api/v1/consumers")).status).toBe(200);
    const created = await admin.post("/api/v1/consumers", { uid: "from-dashboard", name: "Dash" });
    expect(created.status).toBe(201);
  });

  it("refuses a change whose Origin is foreign or missing, and writes nothing", async () => {
    for (const origin of ["https://evil.example", "null", null]) {
      const client = await operatorClient("admin", { origin });
      const res = await client.post("/api/v1/consumers", { uid: `x-${origin}`, name: "X" });
      expect(res.status, String(origin)).toBe(403);
      expect(res.body.code).toBe("origin_mismatch");
      expect(res.headers.get("content-type")).toBe("application/problem+json");
      // Reads need no Origin: SameSite=Lax keeps the cookie off other sites' subrequests.
      expect((await client.get("/api/v1/consumers")).status).toBe(200);
    }
    expect(await getDb().select().from(consumers).where(eq(consumers.uid, "x-https://evil.example"))).toEqual([]);
  });

  it("lets a viewer read but change nothing", async () => {
    const viewer = await operatorClient("viewer");
    expect((await viewer.get("/api/v1/consumers")).status).toBe(200);
    expect((await viewer.get("/api/v1/event-types")).status).toBe(200);
    const res = await viewer.post("/api/v1/api-keys", { name: "sneaky" });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("forbidden");
    expect(await getDb().select().from(apiKeys).where(eq(apiKeys.name, "sneaky"))).toEqual([]);
  });

  it("ends with the session: expired, forged or removed-operator cookies are 401", async () => {
    const admin = await operatorClient("admin");
    const expired = await sessionCookie(admin.operator.id, { maxAgeSeconds: -60 });
    expect((await call("GET", "/api/v1/consumers", { headers: { cookie: expired } })).status).toBe(401);
    // One character of the ciphertext changed (a middle one: the last of a base64url segment may
    // carry only discarded bits, and replacing it by itself changes nothing — a flake of 1 in 16).
    const token = (await sessionCookie(admin.operator.id)).split("=")[1]!;
    const parts = token.split(".");
    const at = Math.floor(parts[3]!.length / 2);
    parts[3] = parts[3]!.slice(0, at) + (parts[3]![at] === "A" ? "B" : "A") + parts[3]!.slice(at + 1);
    const forged = "authjs.session-token=" + parts.join(".");
    expect((await call("GET", "/api/v1/consumers", { headers: { cookie: forged } })).status).toBe(401);
    await getDb().delete(operators).where(eq(operators.id, admin.operator.id));
    const gone = await admin.get("/api/v1/consumers");
    expect(gone.status).toBe(401);
    expect(gone.body.code).toBe("unauthorized");
  });

  it("prefers an API key when both are sent", async () => {
    const viewer = await operatorClient("viewer");
    const { key } = await apiClient();
    const res = await call("POST", "/api/v1/event-types", {
      body: { name: "both.sent" },
      headers: { cookie: viewer.cookie, origin: APP_ORIGIN, authorization: `Bearer ${key}` },
    });
    expect(res.status).toBe(201);
  });
});

describe("audit", () => {
  it("records who created and revoked keys and added and removed operators", async () => {
    const admin = await operatorClient("admin");
    const key = await admin.post("/api/v1/api-keys", { name: "audited" });
    await admin.del(`/api/v1/api-keys/${key.body.id}`);
    const viewer = await admin.post("/api/v1/operators", { email: "audited@example.com", password: "long enough pw", role: "viewer" });
    await admin.del(`/api/v1/operators/${viewer.body.id}`);
    const rows = await getDb().select().from(auditEvents).where(eq(auditEvents.actorId, admin.operator.id));
    expect(rows.map((r) => [r.action, r.targetId]).sort()).toEqual(
      [
        ["api_key.created", key.body.id],
        ["api_key.revoked", key.body.id],
        ["operator.created", viewer.body.id],
        ["operator.deleted", viewer.body.id],
      ].sort(),
    );
    expect(rows.every((r) => r.actorType === "operator")).toBe(true);
    expect(rows.find((r) => r.action === "operator.created")!.data).toEqual({ email: "audited@example.com", role: "viewer" });
    expect(JSON.stringify(rows)).not.toContain(key.body.key);
    expect(JSON.stringify(rows)).not.toContain("long enough pw");
  });
});

describe("operators over the API", () => {
  it("lets an admin create, list and remove operators with their roles", async () => {
    const admin = await operatorClient("admin");
    const created = await admin.post("/api/v1/operators", { email: "New.Viewer@Example.com", password: "long enough pw", role: "viewer" });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.stringMatching(/^op_/), email: "new.viewer@example.com", role: "viewer", created_at: expect.any(String) });
    expect(created.text).not.toContain("long enough pw");
    expect((await admin.post("/api/v1/operators", { email: "new.viewer@example.com", password: "another one!" })).body.code).toBe("email_taken");
    const list = await admin.get("/api/v1/operators");
    expect(list.body.data.map((o: any) => o.email)).toContain("new.viewer@example.com");
    expect(list.text).not.toContain("scrypt");

    const viewerCookie = await sessionCookie(created.body.id);
    expect((await call("GET", "/api/v1/consumers", { headers: { cookie: viewerCookie } })).status).toBe(200);
    expect((await admin.del(`/api/v1/operators/${created.body.id}`)).status).toBe(204);
    expect((await call("GET", "/api/v1/consumers", { headers: { cookie: viewerCookie } })).status).toBe(401);
    expect((await admin.del(`/api/v1/operators/${created.body.id}`)).status).toBe(404);
  });

  it("keeps viewers out of operator management, even reading it", async () => {
    const viewer = await operatorClient("viewer");
    expect((await viewer.get("/api/v1/operators")).status).toBe(403);
    expect((await viewer.post("/api/v1/operators", { email: "v@example.com", password: "long enough pw" })).status).toBe(403);
  });

  it("never removes yourself or the last admin", async () => {
    await getDb().delete(operators);
    const only = await operatorClient("admin");
    const self = await only.del(`/api/v1/operators/${only.operator.id}`);
    expect(self.status).toBe(409);
    expect(self.body.code).toBe("cannot_remove_self");
    const { del } = await apiClient();
    const last = await del(`/api/v1/operators/${only.operator.id}`);
    expect(last.status).toBe(409);
    expect(last.body.code).toBe("last_admin");
    const second = await operatorClient("admin");
    expect((await second.del(`/api/v1/operators/${only.operator.id}`)).status).toBe(204);
  });

  it("refuses a bad role or a short password with 422", async () => {
    const admin = await operatorClient("admin");
    const res = await admin.post("/api/v1/operators", { email: "x@example.com", password: "short", role: "root" });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: any) => e.path).sort()).toEqual(["password", "role"]);
  });
});

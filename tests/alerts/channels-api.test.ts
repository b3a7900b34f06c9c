import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { resetConfigForTests } from "../../lib/config";
import { getDb } from "../../lib/db/client";
import { alertChannels, alerts } from "../../lib/db/schema";
import { apiClient, expectProblem, type Api } from "../helpers/api";

let api: Api;
beforeAll(async () => {
  api = await apiClient();
});

const SLACK_URL = "https://hooks.slack.com/services/T0001/B0001/abcdefghijklmnopqrstuvwx";
const TEAMS_URL = "https://acme.webhook.office.com/webhookb2/1111@2222/IncomingWebhook/cafebabe0123456789/3333";
const CW_TOKEN = "0123456789abcdef0123456789abcdef";

const channelCount = async () => (await getDb().select({ id: alertChannels.id }).from(alertChannels)).length;

describe("alert channels", () => {
  it("creates one of each kind, masked, encrypted at rest; a webhook channel's secret is shown once", async () => {
    const slack = await api.post("/api/v1/alert-channels", { kind: "slack", name: "ops slack", config: { webhook_url: SLACK_URL } });
    expect(slack.status).toBe(201);
    expect(slack.body).toEqual({
      id: expect.stringMatching(/^ach_/),
      kind: "slack",
      name: "ops slack",
      config: { webhook_url: "https://hooks.slack.com/…uvwx" },
      kinds: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const teams = await api.post("/api/v1/alert-channels", { kind: "teams", name: "t", config: { webhook_url: TEAMS_URL }, kinds: ["endpoint.disabled"] });
    expect(teams.status).toBe(201);
    expect(teams.body.config).toEqual({ webhook_url: "https://acme.webhook.office.com/…3333" });
    expect(teams.body.kinds).toEqual(["endpoint.disabled"]);
    const chatwork = await api.post("/api/v1/alert-channels", { kind: "chatwork", name: "cw", config: { api_token: CW_TOKEN, room_id: 42 } });
    expect(chatwork.status).toBe(201);
    expect(chatwork.body.config).toEqual({ api_token: "…cdef", room_id: "42" });
    const email = await api.post("/api/v1/alert-channels", { kind: "email", name: "mail", config: { to: ["ops@example.com"] } });
    expect(email.status).toBe(201);
    expect(email.body.config).toEqual({ to: ["ops@example.com"] });
    expect(email.body.secret).toBeUndefined();
    const webhook = await api.post("/api/v1/alert-channels", { kind: "webhook", name: "hook", config: { url: "https://ops.example.com/hooks/alerts" } });
    expect(webhook.status).toBe(201);
    expect(webhook.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(webhook.body.config).toEqual({ url: "https://ops.example.com/…", secret: "whsec_…" });

    for (const created of [slack, teams, chatwork, email, webhook]) {
      const got = await api.get(`/api/v1/alert-channels/${created.body.id}`);
      expect(got.status).toBe(200);
      expect(got.body.secret).toBeUndefined();
      for (const secret of ["abcdefghijklmnopqrstuvwx", "cafebabe0123456789", CW_TOKEN, webhook.body.secret]) expect(got.text).not.toContain(secret);
      const [row] = await getDb().select().from(alertChannels).where(eq(alertChannels.id, created.body.id));
      expect(row!.configCiphertext).toMatch(/^v1\./);
      for (const secret of ["abcdefghijklmnopqrstuvwx", CW_TOKEN, webhook.body.secret.slice(6), "ops@example.com"]) {
        expect(row!.configCiphertext).not.toContain(secret);
      }
    }
    const list = await api.get("/api/v1/alert-channels?limit=2");
    expect(list.body.data.map((c: { id: string }) => c.id)).toEqual([webhook.body.id, email.body.id]);
    const next = await api.get(`/api/v1/alert-channels?limit=10&cursor=${list.body.next_cursor}`);
    expect(next.body.data.map((c: { id: string }) => c.id)).toEqual([chatwork.body.id, teams.body.id, slack.body.id]);
    expect(next.body.next_cursor).toBeNull();
    expect(list.text).not.toContain(webhook.body.secret);
  });

  it("patches name, kinds and config fields, keeping the stored credentials", async () => {
    const created = await api.post("/api/v1/alert-channels", { kind: "chatwork", name: "cw", config: { api_token: CW_TOKEN, room_id: "7" } });
    const patched = await api.patch(`/api/v1/alert-channels/${created.body.id}`, {
      name: "renamed",
      kinds: ["endpoint.failing", "endpoint.failing"],
      config: { room_id: "8" },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: "renamed", kinds: ["endpoint.failing"], config: { api_token: "…cdef", room_id: "8" } });
    const cleared = await api.patch(`/api/v1/alert-channels/${created.body.id}`, { kinds: null });
    expect(cleared.body.kinds).toBeNull();
    expectProblem(await api.patch(`/api/v1/alert-channels/${created.body.id}`, { config: { api_token: "bad token" } }), 422, "validation_failed", "config.api_token");
    expectProblem(await api.patch(`/api/v1/alert-channels/${created.body.id}`, { kind: "slack" }), 422, "validation_failed");
    expect((await api.get(`/api/v1/alert-channels/${created.body.id}`)).body.config).toEqual({ api_token: "…cdef", room_id: "8" });

    const slack = await api.post("/api/v1/alert-channels", { kind: "slack", name: "s", config: { webhook_url: SLACK_URL } });
    expectProblem(await api.patch(`/api/v1/alert-channels/${slack.body.id}`, { config: { webhook_url: "not a url" } }), 422, "validation_failed", "config.webhook_url");
    const moved = await api.patch(`/api/v1/alert-channels/${slack.body.id}`, { config: { webhook_url: "https://hooks.slack.com/services/T9/B9/zyxwvutsrqponmlk" } });
    expect(moved.body.config.webhook_url).toBe("https://hooks.slack.com/…nmlk");
  });

  it("refuses bad config with 422 problem+json and writes nothing", async () => {
    const before = await channelCount();
    const cases: [unknown, string, string][] = [
      [{ kind: "slack", name: "s", config: { webhook_url: "hooks.slack.com/x" } }, "validation_failed", "config.webhook_url"],
      [{ kind: "slack", name: "s", config: {} }, "validation_failed", "config.webhook_url"],
      [{ kind: "chatwork", name: "c", config: { room_id: "1" } }, "validation_failed", "config.api_token"],
      [{ kind: "chatwork", name: "c", config: { api_token: CW_TOKEN, room_id: "general" } }, "validation_failed", "config.room_id"],
      [{ kind: "email", name: "e", config: { to: ["not-an-address"] } }, "validation_failed", "config.to.0"],
      [{ kind: "email", name: "e", config: { to: [] } }, "validation_failed", "config.to"],
      [{ kind: "webhook", name: "w", config: { url: "https://ok.example.com/", secret: "whsec_short" } }, "validation_failed", "config.secret"],
      [{ kind: "webhook", name: "w", config: { url: "ftp://ok.example.com/" } }, "endpoint_url_forbidden", "config.url"],
      [{ kind: "pager", name: "p", config: {} }, "validation_failed", "kind"],
      [{ kind: "slack", name: "s", config: { webhook_url: SLACK_URL }, kinds: ["endpoint.exploded"] }, "validation_failed", "kinds.0"],
      [{ kind: "slack", name: "", config: { webhook_url: SLACK_URL } }, "validation_failed", "name"],
    ];
    for (const [body, code, path] of cases) expectProblem(await api.post("/api/v1/alert-channels", body), 422, code, path);
    expectProblem(await api.raw("POST", "/api/v1/alert-channels", { rawBody: "{", key: api.key }), 400, "invalid_json");

    // The SSRF rules as in production: internal addresses are refused at creation.
    process.env.ALLOW_PRIVATE_ENDPOINTS = "false";
    resetConfigForTests();
    try {
      for (const url of ["https://127.0.0.1/hook", "https://localhost/hook", "https://169.254.169.254/latest", "https://[::1]/x"]) {
        const res = await api.post("/api/v1/alert-channels", { kind: "webhook", name: "w", config: { url } });
        expectProblem(res, 422, "endpoint_url_forbidden", "config.url");
        expect(res.text).not.toContain("whsec_");
      }
      expectProblem(
        await api.post("/api/v1/alert-channels", { kind: "teams", name: "t", config: { webhook_url: "https://10.0.0.5/webhookb2/x" } }),
        422,
        "endpoint_url_forbidden",
        "config.webhook_url",
      );
    } finally {
      process.env.ALLOW_PRIVATE_ENDPOINTS = "true";
      resetConfigForTests();
    }
    expect(await channelCount()).toBe(before);
  });

  it("answers 404 problem+json for an unknown id, and deletes", async () => {
    for (const [method, path] of [
      ["GET", "/api/v1/alert-channels/ach_nope"],
      ["PATCH", "/api/v1/alert-channels/ach_nope"],
      ["DELETE", "/api/v1/alert-channels/ach_nope"],
      ["POST", "/api/v1/alert-channels/ach_nope/test"],
    ] as const) {
      expectProblem(await api.raw(method, path, { key: api.key, body: method === "PATCH" ? { name: "x" } : undefined }), 404, "not_found");
    }
    const created = await api.post("/api/v1/alert-channels", { kind: "email", name: "gone", config: { to: ["a@example.com"] } });
    expect((await api.del(`/api/v1/alert-channels/${created.body.id}`)).status).toBe(204);
    expectProblem(await api.get(`/api/v1/alert-channels/${created.body.id}`), 404, "not_found");
  });

  it("queues a test alert with 202 and needs an API key", async () => {
    const created = await api.post("/api/v1/alert-channels", { kind: "email", name: "test me", config: { to: ["a@example.com"] } });
    const res = await api.post(`/api/v1/alert-channels/${created.body.id}/test`);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ id: expect.stringMatching(/^alr_/), kind: "alert.test", channel_id: created.body.id, created_at: expect.any(String) });
    const [row] = await getDb().select().from(alerts).where(eq(alerts.id, res.body.id));
    expect(row).toMatchObject({ status: "pending", kind: "alert.test", channelId: created.body.id });
    expectProblem(await api.raw("GET", "/api/v1/alert-channels"), 401, "unauthorized");
  });
});

describe("alert channels in the audit log", () => {
  const eventsOf = async (targetId: string) =>
    ((await api.get(`/api/v1/audit-events?target_id=${targetId}&limit=100`)).body.data as any[]).reverse();

  it("records create, update, test and delete in the audit log, naming no URL, token, secret or address", async () => {
    const webhook = await api.post("/api/v1/alert-channels", { kind: "webhook", name: "audited hook", config: { url: "https://ops.example.com/hooks/audited-path-x1" } });
    const chatwork = await api.post("/api/v1/alert-channels", { kind: "chatwork", name: "audited cw", config: { api_token: CW_TOKEN, room_id: "9" }, kinds: ["endpoint.failing"] });
    const email = await api.post("/api/v1/alert-channels", { kind: "email", name: "audited mail", config: { to: ["audited-person@example.com"] } });
    const teams = await api.post("/api/v1/alert-channels", { kind: "teams", name: "audited teams", config: { webhook_url: TEAMS_URL } });
    for (const res of [webhook, chatwork, email, teams]) expect(res.status).toBe(201);
    expect((await api.patch(`/api/v1/alert-channels/${chatwork.body.id}`, { name: "cw renamed", config: { api_token: "fedcba9876543210fedcba9876543210", room_id: "10" } })).status).toBe(200);
    expect((await api.patch(`/api/v1/alert-channels/${email.body.id}`, { config: { to: ["someone-else@example.com"] } })).status).toBe(200);
    expect((await api.patch(`/api/v1/alert-channels/${webhook.body.id}`, { config: { secret: "whsec_" + Buffer.alloc(24, 7).toString("base64") } })).status).toBe(200);
    const tested = await api.post(`/api/v1/alert-channels/${teams.body.id}/test`);
    expect(tested.status).toBe(202);
    expect((await api.del(`/api/v1/alert-channels/${email.body.id}`)).status).toBe(204);

    const actor = (await eventsOf(webhook.body.id))[0].actor;
    expect(actor).toEqual({ type: "api_key", id: expect.any(String), name: "test", deleted: false });
    expect(await eventsOf(webhook.body.id)).toEqual([
      expect.objectContaining({ action: "alert_channel.created", target_type: "alert_channel", data: { kind: "webhook", name: "audited hook", kinds: null } }),
      expect.objectContaining({ action: "alert_channel.updated", data: { fields: ["config.secret"] } }),
    ]);
    expect((await eventsOf(chatwork.body.id)).map((e) => [e.action, e.data])).toEqual([
      ["alert_channel.created", { kind: "chatwork", name: "audited cw", kinds: ["endpoint.failing"] }],
      ["alert_channel.updated", { fields: ["name", "config.api_token", "config.room_id"] }],
    ]);
    expect((await eventsOf(email.body.id)).map((e) => [e.action, e.data])).toEqual([
      ["alert_channel.created", { kind: "email", name: "audited mail", kinds: null }],
      ["alert_channel.updated", { fields: ["config.to"] }],
      ["alert_channel.deleted", { kind: "email", name: "audited mail" }],
    ]);
    expect((await eventsOf(teams.body.id)).map((e) => [e.action, e.data])).toEqual([
      ["alert_channel.created", { kind: "teams", name: "audited teams", kinds: null }],
      ["alert_channel.tested", { alert_id: tested.body.id }],
    ]);
    for (const event of [...(await eventsOf(webhook.body.id)), ...(await eventsOf(teams.body.id))]) expect(event.actor).toEqual(actor);

    const all = (await api.get("/api/v1/audit-events?limit=250")).text;
    for (const secret of [
      "ops.example.com",
      "audited-path-x1",
      webhook.body.secret,
      "whsec_",
      "webhook.office.com",
      "cafebabe0123456789",
      CW_TOKEN,
      "fedcba9876543210",
      "audited-person@example.com",
      "someone-else@example.com",
    ]) {
      expect(all).not.toContain(secret);
    }
  });

  it("writes no audit event for a change that was refused", async () => {
    const created = await api.post("/api/v1/alert-channels", { kind: "chatwork", name: "refusals", config: { api_token: CW_TOKEN, room_id: "1" } });
    expectProblem(await api.patch(`/api/v1/alert-channels/${created.body.id}`, { config: { api_token: "bad token" } }), 422, "validation_failed");
    expectProblem(await api.post("/api/v1/alert-channels", { kind: "chatwork", name: "never made", config: { room_id: "1" } }), 422, "validation_failed");
    expect((await eventsOf(created.body.id)).map((e) => e.action)).toEqual(["alert_channel.created"]);
    const creations = (await api.get("/api/v1/audit-events?action=alert_channel.created&limit=250")).body.data as any[];
    expect(creations.some((e) => e.data.name === "never made")).toBe(false);
  });
});

describe("alert log", () => {
  it("validates its filters and hides alerts still being sent", async () => {
    expectProblem(await api.get("/api/v1/alerts?kind=endpoint.exploded"), 400, "validation_failed");
    expectProblem(await api.get("/api/v1/alerts?since=yesterday"), 400, "validation_failed");
    expectProblem(await api.get("/api/v1/alerts?limit=0"), 400, "validation_failed");
    const res = await api.get("/api/v1/alerts?kind=alert.test");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [], next_cursor: null });
  });
});

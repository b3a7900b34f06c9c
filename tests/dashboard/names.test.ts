import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "../../lib/db/client";
import { alerts } from "../../lib/db/schema";
import { newId } from "../../lib/ids";
import { apiClient, call, type Api } from "../helpers/api";
import { createConsumer, createEndpoint, sendMessage } from "../helpers/fixtures";
import { portalSession } from "../helpers/portal";
import { operatorClient } from "../helpers/session";

/**
 * Lists name what they refer to beside the ids they always had (docs/api.md, "Names beside ids"):
 * the dashboard shows "Old CRM hook" and "Acme Corp" from the same request that lists the rows.
 * The old fields are unchanged; a deleted object is null (or `deleted` in the audit log); a portal
 * session is told nothing of the SaaS's own operators and keys.
 */
const since = "2020-01-01T00:00:00Z";
let api: Api;
let acme: { id: string; uid: string };
let crm: { id: string; url: string };
let billing: { id: string; url: string };
let message: string;

beforeAll(async () => {
  api = await apiClient();
  acme = await createConsumer(api, { uid: "acme", name: "Acme Corp" });
  await createConsumer(api, { uid: "globex", name: "Globex" });
  crm = await createEndpoint(api, "acme", "http://127.0.0.1:9/crm/retired", { description: "Old CRM hook" });
  billing = await createEndpoint(api, "acme", "http://127.0.0.1:9/billing");
  await createEndpoint(api, "globex", "http://127.0.0.1:9/globex-hook", { description: "Globex sync" });
  message = (await sendMessage(api, "acme", { event_type: "user.created", payload: { user: "u_1" } })).id;
});

const acmeRef = () => ({ id: acme.id, uid: "acme", name: "Acme Corp" });
const crmRef = () => ({ id: crm.id, url: crm.url, description: "Old CRM hook" });
const billingRef = () => ({ id: billing.id, url: billing.url, description: "" });

describe("messages", () => {
  it("name their consumer and each delivery's endpoint, in the list and one by one", async () => {
    const list = await api.get("/api/v1/messages?consumer=acme");
    const listed = list.body.data.find((m: { id: string }) => m.id === message);
    expect(listed).toMatchObject({ id: message, consumer_id: acme.id, event_type: "user.created", consumer: acmeRef() });
    const byEndpoint = Object.fromEntries(listed.deliveries.map((d: { endpoint_id: string; endpoint: unknown }) => [d.endpoint_id, d.endpoint]));
    expect(byEndpoint).toEqual({ [crm.id]: crmRef(), [billing.id]: billingRef() });
    // The fields it always had are all there, as they were.
    expect(Object.keys(listed.deliveries[0]).sort()).toEqual(
      ["id", "endpoint_id", "status", "attempts", "next_attempt_at", "last_status_code", "last_error", "last_attempt_at", "endpoint"].sort(),
    );

    const one = await api.get(`/api/v1/messages/${message}`);
    expect(one.body).toMatchObject({ consumer_id: acme.id, consumer: acmeRef(), payload: { user: "u_1" } });
    expect(one.body.deliveries.map((d: { endpoint: unknown }) => d.endpoint)).toEqual(expect.arrayContaining([crmRef(), billingRef()]));
  });

  it("read the names by primary key, leaving the list's own walk as it was", async () => {
    // Enough rows that a scan would cost more than an index lookup, as in any real install.
    await getDb().execute(sql`
      insert into consumers (id, uid, name) select 'con_' || lpad(g::text, 26, '0'), 'bulk-' || g, 'Bulk ' || g from generate_series(1, 3000) g;
      insert into endpoints (id, consumer_id, url) select 'ep_' || lpad(g::text, 26, '0'), 'con_' || lpad(g::text, 26, '0'), 'http://127.0.0.1:9/' || g from generate_series(1, 3000) g;
      analyze consumers; analyze endpoints`);
    // A pooled connection reports its counts when it has been idle a while, so what earlier tests
    // and the load above did could land inside the window below. Closed, every connection reports
    // at once; the window then counts only the request (on new connections).
    await closeDb();
    await expect
      .poll(async () => (await getDb().execute<{ n: number }>(sql`select n_live_tup::int as n from pg_stat_user_tables where relname = 'consumers'`))[0]!.n)
      .toBeGreaterThanOrEqual(3000);
    await closeDb();
    const scans = async () =>
      Object.fromEntries(
        (
          await getDb().execute<{ relname: string; seq_scan: number; idx_scan: number }>(
            sql`select relname, seq_scan::int, coalesce(idx_scan, 0)::int as idx_scan from pg_stat_user_tables where relname in ('consumers', 'endpoints')`,
          )
        ).map((r) => [r.relname, r]),
      );
    const before = await scans();
    const res = await api.get("/api/v1/messages?limit=10");
    expect(res.body.data[0].consumer).toEqual(acmeRef());
    // Statistics reach pg_stat_user_tables when the serving connection goes idle.
    await expect.poll(async () => (await scans()).endpoints!.idx_scan > before.endpoints!.idx_scan).toBe(true);
    await expect.poll(async () => (await scans()).consumers!.idx_scan > before.consumers!.idx_scan).toBe(true);
    const after = await scans();
    expect(after.consumers!.seq_scan).toBe(before.consumers!.seq_scan);
    expect(after.endpoints!.seq_scan).toBe(before.endpoints!.seq_scan);
    await getDb().execute(sql`delete from consumers where uid like 'bulk-%'`);
  });
});

describe("GET /endpoints", () => {
  it("finds endpoints of every consumer by URL, description, or their consumer's name or uid, each naming its consumer", async () => {
    const all = await api.get("/api/v1/endpoints");
    expect(all.status).toBe(200);
    expect(all.body.data.map((e: { url: string }) => e.url)).toEqual(["http://127.0.0.1:9/globex-hook", billing.url, crm.url]);
    expect(all.body.data[2]).toMatchObject({ id: crm.id, consumer_id: acme.id, url: crm.url, description: "Old CRM hook", state: "active", consumer: acmeRef() });

    const urls = async (query: string) => (await api.get(`/api/v1/endpoints?${query}`)).body.data.map((e: { url: string }) => e.url);
    expect(await urls("q=crm%20HOOK")).toEqual([crm.url]);
    expect(await urls("q=retired")).toEqual([crm.url]);
    expect(await urls("q=acme%20corp")).toEqual([billing.url, crm.url]);
    expect(await urls("q=glob")).toEqual(["http://127.0.0.1:9/globex-hook"]);
    expect(await urls("consumer=acme&q=billing")).toEqual([billing.url]);
    expect(await urls(`consumer=${acme.id}`)).toEqual([billing.url, crm.url]);
    // The reader's % and _ are taken as themselves.
    expect(await urls("q=%25")).toEqual([]);
    expect((await api.get("/api/v1/endpoints?consumer=nobody")).status).toBe(404);

    const first = await api.get("/api/v1/endpoints?limit=2");
    const second = await api.get(`/api/v1/endpoints?limit=2&cursor=${first.body.next_cursor}`);
    expect([...first.body.data, ...second.body.data].map((e: { id: string }) => e.id)).toEqual(all.body.data.map((e: { id: string }) => e.id));
    expect(second.body.next_cursor).toBeNull();
  });

  it("lists a portal session's own endpoints alone, whatever it searches for", async () => {
    const { token } = await portalSession(api, "acme");
    const own = await call("GET", "/api/v1/endpoints", { key: token });
    expect(own.body.data.map((e: { id: string }) => e.id).sort()).toEqual([crm.id, billing.id].sort());
    expect((await call("GET", "/api/v1/endpoints?q=globex", { key: token })).body.data).toEqual([]);
    const foreign = await call("GET", "/api/v1/endpoints?consumer=globex", { key: token });
    expect(foreign.status).toBe(404);
    expect(foreign.text).not.toContain("Globex");
  });
});

describe("alerts", () => {
  it("name their endpoint, consumer and channel; a deleted one is null beside its id", async () => {
    const channel = await api.post("/api/v1/alert-channels", { kind: "email", name: "Ops mailbox", config: { to: ["ops@example.com"] } });
    const gone = await createEndpoint(api, "acme", "http://127.0.0.1:9/gone");
    const row = (endpointId: string, channelId: string | null) => ({
      id: newId("alert"),
      kind: "endpoint.failing",
      endpointId,
      consumerId: acme.id,
      channelId,
      recipient: channelId ? null : "ops@acme.example",
      status: "sent" as const,
      payload: {},
    });
    await getDb().insert(alerts).values([row(crm.id, channel.body.id), row(gone.id, null)]);
    await api.del(`/api/v1/endpoints/${gone.id}`);
    const log = (await api.get("/api/v1/alerts")).body.data as Record<string, unknown>[];
    expect(log.find((a) => a.endpoint_id === crm.id)).toMatchObject({
      channel_id: channel.body.id,
      consumer_id: acme.id,
      endpoint: crmRef(),
      consumer: acmeRef(),
      channel: { id: channel.body.id, name: "Ops mailbox", kind: "email" },
    });
    expect(log.find((a) => a.endpoint_id === gone.id)).toMatchObject({ endpoint: null, channel: null, channel_id: null, recipient: "ops@acme.example", consumer: acmeRef() });
  });
});

describe("recoveries", () => {
  it("name their consumer, endpoint and who started them; a portal session is not told the SaaS's key", async () => {
    const admin = await operatorClient("admin");
    // The message's delivery to the CRM hook used up its schedule.
    await getDb().execute(sql`delete from delivery_queue where delivery_id in (select id from deliveries where endpoint_id = ${crm.id})`);
    await getDb().execute(sql`update deliveries set status = 'failed' where endpoint_id = ${crm.id}`);
    const byKey = await api.post(`/api/v1/endpoints/${crm.id}/recover`, { since, include_never_attempted: true });
    expect(byKey.status, byKey.text).toBe(202);
    expect(byKey.body).toMatchObject({ consumer_id: acme.id, endpoint_id: crm.id, consumer: acmeRef(), endpoint: crmRef(), created_by: { type: "api_key", name: "test" } });
    const byOperator = await admin.post("/api/v1/consumers/acme/recover", { since, include_never_attempted: true, statuses: ["canceled"] });
    expect(byOperator.status, byOperator.text).toBe(202);
    expect(byOperator.body).toMatchObject({ endpoint_id: null, endpoint: null, consumer: acmeRef(), created_by: { type: "operator", id: admin.operator.id, name: admin.operator.email } });

    const listed = (await api.get("/api/v1/recoveries?consumer=acme")).body.data as { id: string; created_by: { name: string | null } }[];
    expect(listed.map((r) => [r.id, r.created_by.name])).toEqual([
      [byOperator.body.id, admin.operator.email],
      [byKey.body.id, "test"],
    ]);
    const paused = await api.post(`/api/v1/recoveries/${byKey.body.id}/pause`);
    expect(paused.body).toMatchObject({ endpoint: crmRef(), created_by: { name: "test" } });

    const items = await api.get(`/api/v1/recoveries/${byKey.body.id}/items`);
    expect(items.body.data.length).toBeGreaterThan(0);
    for (const item of items.body.data) expect(item).toMatchObject({ endpoint_id: crm.id, endpoint: crmRef() });

    const { token } = await portalSession(api, "acme");
    const seen = await call("GET", `/api/v1/recoveries/${byOperator.body.id}`, { key: token });
    expect(seen.body).toMatchObject({ consumer: acmeRef(), created_by: { type: "operator", name: null } });
    expect(seen.text).not.toContain(admin.operator.email);
    const list = await call("GET", "/api/v1/recoveries", { key: token });
    expect(list.text).not.toContain(admin.operator.email);
    expect(list.body.data.every((r: { created_by: { name: string | null } }) => r.created_by.name === null)).toBe(true);
  });
});

describe("audit events", () => {
  it("name their actor and target; a deleted target is marked deleted beside its id", async () => {
    const admin = await operatorClient("admin");
    const temp = await createEndpoint(admin, "acme", "http://127.0.0.1:9/temporary", { description: "Temporary" });
    expect((await admin.del(`/api/v1/endpoints/${temp.id}`)).status).toBe(204);
    const key = await admin.post("/api/v1/api-keys", { name: "reporting" });
    await api.patch("/api/v1/consumers/acme", { alert_emails: ["ops@acme.example"] });
    const { token } = await portalSession(api, "acme");
    await call("PATCH", `/api/v1/endpoints/${crm.id}`, { key: token, body: { description: "Old CRM hook" } });
    expect((await api.post(`/api/v1/messages/${message}/resend`, { endpoint_id: billing.id })).status).toBe(202);

    const events = (await api.get("/api/v1/audit-events?limit=250")).body.data as {
      action: string;
      target_id: string;
      actor: { type: string; id: string | null; name: string | null; deleted: boolean };
      target: { type: string; id: string; name: string | null; detail: string | null; deleted: boolean };
    }[];
    const find = (action: string, target: string) => events.find((e) => e.action === action && e.target_id === target)!;
    expect(find("endpoint.created", temp.id)).toMatchObject({
      actor: { type: "operator", id: admin.operator.id, name: admin.operator.email, deleted: false },
      target: { type: "endpoint", id: temp.id, name: null, detail: null, deleted: true },
    });
    expect(find("api_key.created", key.body.id).target).toEqual({ type: "api_key", id: key.body.id, name: "reporting", detail: key.body.prefix, deleted: false });
    expect(find("consumer.updated", acme.id)).toMatchObject({
      actor: { type: "api_key", name: "test", deleted: false },
      target: { type: "consumer", id: acme.id, name: "Acme Corp", detail: "acme", deleted: false },
    });
    expect(find("endpoint.updated", crm.id)).toMatchObject({
      actor: { type: "portal", name: "Acme Corp", deleted: false },
      target: { name: "Old CRM hook", detail: crm.url, deleted: false },
    });
    const started = events.find((e) => e.action === "portal_session.started")!;
    expect(started.target).toMatchObject({ type: "portal_session", name: "Acme Corp", detail: "acme", deleted: false });
    const recovery = events.find((e) => e.action === "recovery.started" && e.actor.type === "api_key")!;
    expect(recovery.target).toMatchObject({ type: "recovery", name: "Old CRM hook", detail: "Acme Corp", deleted: false });
    expect(find("message.resent", message).target).toEqual({ type: "message", id: message, name: null, detail: null, deleted: false });

    const removed = await admin.post("/api/v1/operators", { email: "leaver@example.com", password: "long enough pw", role: "viewer" });
    expect((await admin.del(`/api/v1/operators/${removed.body.id}`)).status).toBe(204);
    const after = (await api.get(`/api/v1/audit-events?target_id=${removed.body.id}`)).body.data as typeof events;
    expect(after.map((e) => [e.action, e.target.deleted, e.target.name])).toEqual([
      ["operator.deleted", true, null],
      ["operator.created", true, null],
    ]);
  });
});

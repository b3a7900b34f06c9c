import { describe, expect, it } from "vitest";
import { getSql } from "../../lib/db/client";
import { recordAuditEvent } from "../../lib/audit/record-audit-event";
import { systemCtx } from "../../lib/open-ctx";
import { findPayloadPurge, purgePayloads } from "../../lib/retention/purge-payloads";
import { loggedAttempt } from "../helpers/attempt-row";
import { runReceiver, waitFor } from "../helpers/receiver";
import { runTestWorker } from "../helpers/worker";
import { apiError, sdkServer, SDKS, type Sdk } from "./sdks";

/**
 * sendExample, and the content expunges — a message's payload, many messages' (2.x has the method),
 * all of an application's (a background task), an attempt's response — through the official svix
 * SDKs, over our test send and our expunge (lib/retention/expunge-payload.ts).
 */
const server = sdkServer();
runTestWorker();
const receiver = runReceiver();

describe.each(SDKS.map((sdk) => [sdk.name, sdk] as const))("%s", (name, sdk: Sdk) => {
  const svix = () => server.client(sdk);
  const tag = name.replace(/\W/g, "");

  async function appWithEndpoint(suffix: string) {
    const app = await svix().application.create({ name: `Expunge ${suffix}`, uid: `${suffix}-${tag}` });
    const endpoint = await svix().endpoint.create(app.id, { url: `${receiver.url}/${suffix}-${tag}` });
    return { app: app.id, endpoint: endpoint.id };
  }

  it("sendExample delivers the event type's schema example to that endpoint alone, signed, as a test", async () => {
    const eventType = `example.sent-${tag}`;
    await svix().eventType.create({ name: eventType, description: "With examples", schemas: { "1": { type: "object", examples: [{ n: 1 }, { n: 2, who: "second" }] } } });
    const { app, endpoint } = await appWithEndpoint("example");
    await svix().endpoint.create(app, { url: `${receiver.url}/example-other-${tag}` });
    const sent = await svix().endpoint.sendExample(app, endpoint, { eventType, exampleIndex: 1 });
    expect(sent).toMatchObject({ eventType, payload: { n: 2, who: "second" } });
    const delivery = await waitFor(() => receiver.received.find((r) => r.headers["svix-id"] === sent.id));
    expect(delivery.path).toBe(`/example-${tag}`);
    expect(JSON.parse(delivery.body)).toEqual({ n: 2, who: "second" });
    expect(delivery.headers["webhook-test"]).toBe("true");
    expect(receiver.received.filter((r) => r.path === `/example-other-${tag}`)).toEqual([]);

    const unknown = await apiError(sdk, svix().endpoint.sendExample(app, endpoint, { eventType: `no.such-${tag}` }));
    expect(unknown.code).toBe(404);
    expect(unknown.body.code).toBe("not_found");
  });

  it("message.expungeContent erases the payload: expired on read, not resent, again no error", async () => {
    const { app, endpoint } = await appWithEndpoint("one");
    const msg = await svix().message.create(app, { eventType: "invoice.paid", payload: { card: "4242" } });
    await svix().message.expungeContent(app, msg.id);
    expect((await svix().message.get(app, msg.id, { withContent: true })).payload).toEqual({ expired: true });
    const resend = await apiError(sdk, svix().messageAttempt.resend(app, msg.id, endpoint));
    expect(resend.code).toBe(400);
    expect(resend.body.code).toBe("missing_payload");
    await svix().message.expungeContent(app, msg.id);
    expect((await apiError(sdk, svix().message.expungeContent(app, "msg_no_such"))).code).toBe(404);
  });

  it("messageAttempt.expungeContent erases the attempt's response, its status and timing stay", async () => {
    const { app, endpoint } = await appWithEndpoint("attempt");
    const msg = await svix().message.create(app, { eventType: "invoice.paid", payload: { a: 1 } });
    const attempt = await loggedAttempt(msg.id, endpoint);
    await getSql()`update attempts set response_body = 'token=secret' where id = ${attempt}`;
    expect((await svix().messageAttempt.get(app, msg.id, attempt)).response).toBe("token=secret");
    await svix().messageAttempt.expungeContent(app, msg.id, attempt);
    const after = await svix().messageAttempt.get(app, msg.id, attempt);
    expect(after).toMatchObject({ response: "", responseStatusCode: 200, status: 0 });
    // The payload is not the attempt's: it stays.
    expect((await svix().message.get(app, msg.id, { withContent: true })).payload).toEqual({ a: 1 });
    const other = await appWithEndpoint("attempt-other");
    expect((await apiError(sdk, svix().messageAttempt.expungeContent(other.app, msg.id, attempt))).code).toBe(404);
  });

  it("message.expungeAllContents is a background task: every payload of the application made before it, the task finished", async () => {
    const { app } = await appWithEndpoint("all");
    const { app: bystander } = await appWithEndpoint("bystander");
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await svix().message.create(app, { eventType: "invoice.paid", payload: { i } })).id);
    const kept = await svix().message.create(bystander, { eventType: "invoice.paid", payload: { kept: true } });
    const task = await svix().message.expungeAllContents(app);
    expect(task).toMatchObject({ status: "finished", task: "application.purge_content" });
    for (const id of ids) expect((await svix().message.get(app, id, { withContent: true })).payload).toEqual({ expired: true });
    expect((await svix().message.get(bystander, kept.id, { withContent: true })).payload).toEqual({ kept: true });
    expect(await svix().backgroundTask.get(task.id)).toMatchObject({ id: task.id, status: "finished", task: "application.purge_content", data: { messagesPurged: 3 } });
  });
});

describe("svix 2.x", () => {
  const sdk = SDKS[1];
  const svix = () => server.client(sdk);

  it("message.bulkExpungeContent expunges each id or eventId found and says which were not", async () => {
    const app = (await svix().application.create({ name: "Bulk", uid: "bulk-2x" })).id;
    const a = await svix().message.create(app, { eventType: "invoice.paid", payload: { a: 1 } });
    const b = await svix().message.create(app, { eventType: "invoice.paid", payload: { b: 1 }, eventId: "evt-bulk-b" });
    const c = await svix().message.create(app, { eventType: "invoice.paid", payload: { c: 1 } });
    const out = await svix().message.bulkExpungeContent(app, { ids: [a.id, "evt-bulk-b", "msg_nowhere"] });
    expect(out.results).toEqual({ [a.id]: "expunged", "evt-bulk-b": "expunged", msg_nowhere: "not-found" });
    expect((await svix().message.get(app, b.id, { withContent: true })).payload).toEqual({ expired: true });
    expect((await svix().message.get(app, c.id, { withContent: true })).payload).toEqual({ c: 1 });
    // Again: what is gone already counts as expunged.
    expect((await svix().message.bulkExpungeContent(app, { ids: [a.id] })).results).toEqual({ [a.id]: "expunged" });
    const tooMany = await apiError(sdk, svix().message.bulkExpungeContent(app, { ids: Array.from({ length: 1001 }, (_, i) => `m${i}`) }));
    expect(tooMany.code).toBe(422);
    expect(tooMany.body.detail[0].loc).toEqual(["body", "ids"]);
  });
});

describe("a purge the request does not finish", () => {
  it("goes on from where it got to, batch by batch, and finishes once with its count", async () => {
    const svix = () => server.client(SDKS[1]);
    const app = await svix().application.create({ name: "Slow purge", uid: "slow-purge" });
    for (let i = 0; i < 2; i++) await svix().message.create(app.id, { eventType: "invoice.paid", payload: { i } });
    const ctx = systemCtx();
    const purgeId = await recordAuditEvent(ctx, { action: "consumer.payloads_purge_started", targetType: "consumer", targetId: app.id });
    // A deadline already past: one batch a call, as a worker slice that is stopping runs.
    const first = await purgePayloads(ctx, { purgeId, deadline: 0, after: null });
    expect(first.done).toBe(false);
    expect((await findPayloadPurge(ctx, purgeId)).status).toBe("running");
    const second = await purgePayloads(ctx, { purgeId, deadline: 0, after: first.after });
    expect(second.done).toBe(true);
    expect(await purgePayloads(ctx, { purgeId, deadline: 0, after: null })).toEqual({ done: true, after: null });
    expect(await findPayloadPurge(ctx, purgeId)).toMatchObject({ status: "finished", messages: 2 });
  });

  it("reads failed once its job has failed its last attempt, running until then; a new purge does the work", async () => {
    const svix = () => server.client(SDKS[1]);
    const app = await svix().application.create({ name: "Failing purge", uid: "failing-purge" });
    const message = await svix().message.create(app.id, { eventType: "invoice.paid", payload: { kept: true } });
    const purgeId = await recordAuditEvent(systemCtx(), { action: "consumer.payloads_purge_started", targetType: "consumer", targetId: app.id });
    // A cursor PostgreSQL cannot read fails every slice of this purge; its job has two attempts.
    const sql = getSql();
    const [{ id } = { id: "" }] = await sql<{ id: string }[]>`
      select (graphile_worker.add_job('purge_payloads', json_build_object('purge_id', ${purgeId}::text, 'after', json_build_object('at', 'not a time', 'id', 'x')), max_attempts := 2)).id`;
    const job = () => sql<{ attempts: number; last_error: string | null }[]>`select attempts, last_error from graphile_worker.jobs where id = ${id}`;
    await waitFor(async () => (await job())[0]?.last_error, { what: "the first attempt to fail" });
    expect(await svix().backgroundTask.get(purgeId)).toMatchObject({ id: purgeId, status: "running" });
    // The retry, at once rather than after graphile's back-off: the last attempt.
    await sql`update graphile_worker._private_jobs set run_at = now() where id = ${id}`;
    const failed = await waitFor(async () => {
      const task = await svix().backgroundTask.get(purgeId);
      return task.status !== "running" && task;
    });
    expect(failed).toMatchObject({ id: purgeId, status: "failed", task: "application.purge_content", data: { messagesPurged: null } });
    expect((await job())[0]).toMatchObject({ attempts: 2 });
    expect((await svix().message.get(app.id, message.id, { withContent: true })).payload).toEqual({ kept: true });
    expect(await svix().message.expungeAllContents(app.id)).toMatchObject({ status: "finished" });
    expect((await svix().message.get(app.id, message.id, { withContent: true })).payload).toEqual({ expired: true });
    expect(await svix().backgroundTask.get(purgeId)).toMatchObject({ status: "failed" });
  });
});

import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { runReceiver, waitFor } from "../helpers/receiver";
import { runTestWorker } from "../helpers/worker";
import { apiError, sdkServer, SDKS, upsert, type Sdk } from "./sdks";

/**
 * Svix's operational webhook endpoints over our alert channels of kind webhook, through both SDKs:
 * made, read, listed, changed, their secret read and rotated, and an alert the worker sends to one
 * verified with the secret the SDK read back.
 */
const server = sdkServer();
runTestWorker();
const receiver = runReceiver();

describe.each(SDKS.map((sdk) => [sdk.name, sdk] as const))("%s", (name, sdk: Sdk) => {
  const svix = () => server.client(sdk);
  const ops = () => svix().operationalWebhook.endpoint;
  const tag = name.replace(/\W/g, "");
  // 1.x names the event types filterTypes, 2.x eventTypes: the server reads and answers both.
  const kinds = (list: string[]) => ({ eventTypes: list, filterTypes: list });

  it("makes an alert channel of kind webhook, reads, lists, changes and deletes it", async () => {
    const made = await ops().create({ url: `${receiver.url}/ops-${tag}`, description: `Ops ${tag}`, ...kinds(["endpoint.disabled"]) });
    expect(made).toMatchObject({ description: `Ops ${tag}`, metadata: {} });
    expect(made.eventTypes ?? (made as { filterTypes?: string[] }).filterTypes).toEqual(["endpoint.disabled"]);
    expect(made.id).toMatch(/^ach_/);
    // Our own API sees the channel it is.
    const channel = await call("GET", `/api/v1/alert-channels/${made.id}`, { key: server.token });
    expect(channel.body).toMatchObject({ kind: "webhook", name: `Ops ${tag}`, kinds: ["endpoint.disabled"] });
    expect((await ops().get(made.id)).url).toBe(channel.body.config.url);
    expect((await ops().list()).data.map((e) => e.id)).toContain(made.id);

    const updated = await upsert<typeof made>(ops(), made.id, { url: `${receiver.url}/ops-moved-${tag}`, description: "Moved" });
    expect(updated).toMatchObject({ id: made.id, description: "Moved" });
    // Whole: no event types given is every alert kind.
    expect((await call("GET", `/api/v1/alert-channels/${made.id}`, { key: server.token })).body.kinds).toBeNull();
    expect(await ops().getHeaders(made.id)).toEqual({ headers: {}, sensitive: [] });
    // 1.x's updateHeaders is 2.x's setHeaders.
    const setHeaders = (headers: Record<string, string>) => {
      const api = ops() as unknown as Record<string, (id: string, body: unknown) => Promise<void>>;
      return (api.setHeaders ?? api.updateHeaders)!.call(api, made.id, { headers });
    };
    await setHeaders({});
    expect((await apiError(sdk, setHeaders({ "x-a": "b" }))).code).toBe(422);

    await ops().delete(made.id);
    expect((await apiError(sdk, ops().get(made.id))).code).toBe(404);
  });

  it("refuses what a channel cannot hold, and event types that are not alert kinds", async () => {
    const uid = await apiError(sdk, ops().create({ url: `${receiver.url}/ops`, uid: "ops-uid" }));
    expect(uid.code).toBe(422);
    expect(uid.body.detail[0].loc).toEqual(["body", "uid"]);
    const notKinds = await apiError(sdk, ops().create({ url: `${receiver.url}/ops`, ...kinds(["message.attempt.failing"]) }));
    expect(notKinds.code).toBe(422);
    expect(notKinds.body.detail[0]).toMatchObject({ loc: ["body", "eventTypes"], msg: expect.stringContaining("endpoint.failing") });
    const url = await apiError(sdk, ops().create({ url: "ftp://example.com/ops" }));
    expect(url.code).toBe(422);
    expect(url.body.detail[0].loc).toEqual(["body", "url"]);
    // Another kind of channel is no operational webhook endpoint.
    const email = await call("POST", "/api/v1/alert-channels", { key: server.token, body: { kind: "email", name: "mail", config: { to: ["ops@example.com"] } } });
    expect((await apiError(sdk, ops().get(email.body.id))).code).toBe(404);
  });

  it("signs its alerts with the secret getSecret answers, and a rotated one at once", async () => {
    const secret = `whsec_${Buffer.from(`ops-secret-${tag}`.padEnd(32, "x")).toString("base64")}`;
    const made = await ops().create({ url: `${receiver.url}/signed-${tag}`, secret });
    expect((await ops().getSecret(made.id)).key).toBe(secret);
    await ops().rotateSecret(made.id, {});
    const rotated = (await ops().getSecret(made.id)).key;
    expect(rotated).not.toBe(secret);

    const sent = await call("POST", `/api/v1/alert-channels/${made.id}/test`, { key: server.token });
    expect(sent.status, sent.text).toBe(202);
    const alert = await waitFor(() => receiver.received.find((r) => r.path === `/signed-${tag}`));
    const headers = Object.fromEntries(["webhook-id", "webhook-timestamp", "webhook-signature"].map((h) => [h, String(alert.headers[h])]));
    expect(JSON.parse(alert.body)).toMatchObject({ type: "alert.test" });
    expect(() => new sdk.Webhook(rotated).verify(alert.body, headers)).not.toThrow();
    expect(() => new sdk.Webhook(secret).verify(alert.body, headers)).toThrow();
  });
});

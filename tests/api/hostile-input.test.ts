import { beforeAll, describe, expect, it } from "vitest";
import { apiClient, expectProblem, type Api } from "../helpers/api";
import { runReceiver, waitFor } from "../helpers/receiver";
import { runTestWorker } from "../helpers/worker";
import { getSql } from "../../lib/db/client";
import { withEnv } from "../helpers/env";
import { consumerWithEndpoint, createConsumer, createEndpoint, sendMessage } from "../helpers/fixtures";

/**
 * Input a hostile or careless client sends: each answer is problem+json 4xx with a stable code,
 * and nothing is written.
 */
let api: Api;
let endpointId: string;
beforeAll(async () => {
  api = await apiClient();
  ({ endpointId } = await consumerWithEndpoint(api, "https://hooks.acme.test/x", { consumer: { uid: "acme", name: "Acme" } }));
});

const NUL = "a\u0000b";
const LONE_SURROGATE = "a\ud800b";

const count = async (table: string) => Number((await getSql().unsafe(`select count(*) from ${table}`))[0]!.count);

describe("U+0000 and unpaired surrogates, which Postgres text and jsonb cannot store", () => {
  it("are refused in every free-form field, and nothing is written", async () => {
    const before = { consumers: await count("consumers"), endpoints: await count("endpoints"), messages: await count("messages") };
    for (const bad of [NUL, LONE_SURROGATE]) {
      expectProblem(await api.post("/api/v1/consumers", { uid: "c1", name: bad }), 422, "validation_failed", "name");
      expectProblem(await api.post("/api/v1/consumers", { uid: "c1", name: "C", metadata: { plan: bad } }), 422, "validation_failed", "metadata.plan");
      expectProblem(
        await api.post("/api/v1/consumers", { uid: "c1", name: "C", metadata: { deep: { list: ["ok", bad] } } }),
        422,
        "validation_failed",
        "metadata.deep.list.1",
      );
      expectProblem(await api.post("/api/v1/consumers", { uid: "c1", name: "C", metadata: { [bad]: 1 } }), 422, "validation_failed");
      expectProblem(await api.patch("/api/v1/consumers/acme", { name: bad }), 422, "validation_failed", "name");
      expectProblem(await api.patch("/api/v1/consumers/acme", { metadata: { x: bad } }), 422, "validation_failed", "metadata.x");
      expectProblem(
        await api.post("/api/v1/consumers/acme/endpoints", { url: "https://hooks.acme.test/y", description: bad }),
        422,
        "validation_failed",
        "description",
      );
      expectProblem(await api.patch(`/api/v1/endpoints/${endpointId}`, { description: bad }), 422, "validation_failed", "description");
      expectProblem(
        await api.post("/api/v1/messages", { consumer: "acme", event_type: "a.b", payload: {}, event_id: bad }),
        422,
        "validation_failed",
        "event_id",
      );
      expectProblem(await api.post("/api/v1/messages", { consumer: bad, event_type: "a.b", payload: {} }), 422, "validation_failed", "consumer");
      expectProblem(await api.post("/api/v1/event-types", { name: "x.y", description: bad }), 422, "validation_failed", "description");
      expectProblem(await api.post("/api/v1/event-types", { name: "x.z", schema: { title: bad } }), 422, "validation_failed", "schema.title");
      expectProblem(await api.post("/api/v1/event-types", { name: "x.w", example: { list: [bad] } }), 422, "validation_failed", "example.list.0");
      expectProblem(await api.post("/api/v1/api-keys", { name: bad }), 422, "validation_failed", "name");
      expectProblem(
        await api.post("/api/v1/alert-channels", { kind: "email", name: bad, config: { to: ["ops@acme.test"] } }),
        422,
        "validation_failed",
        "name",
      );
    }
    // A URL cannot carry an unpaired surrogate (undecodable UTF-8 becomes U+FFFD), but it can carry %00.
    expectProblem(await api.get("/api/v1/messages?consumer=a%00b"), 400, "validation_failed", "consumer");
    expectProblem(await api.get("/api/v1/consumers?q=a%00b"), 400, "validation_failed", "q");
    expectProblem(await api.get("/api/v1/attempts?endpoint_id=%00"), 400, "validation_failed", "endpoint_id");
    expectProblem(await api.get("/api/v1/recoveries?consumer=a%00b"), 400, "validation_failed", "consumer");
    expect({ consumers: await count("consumers"), endpoints: await count("endpoints"), messages: await count("messages") }).toEqual(before);
    const [acme] = await getSql()`select name, metadata from consumers where uid = 'acme'`;
    expect(acme).toEqual({ name: "Acme", metadata: {} });
  });

  it("in a path parameter is a 404: no resource can be named so", async () => {
    for (const path of ["/api/v1/consumers/%00", "/api/v1/consumers/a%00b/endpoints", "/api/v1/endpoints/ep_%00", "/api/v1/messages/%00"] ) {
      expectProblem(await api.get(path), 404, "not_found");
    }
    expectProblem(await api.del("/api/v1/consumers/%00"), 404, "not_found");
    expectProblem(await api.patch("/api/v1/consumers/%00", { name: "x" }), 404, "not_found");
  });
});

describe("a payload's strings are the client's own JSON", () => {
  const receiver = runReceiver();
  runTestWorker();

  it("U+0000 and a lone surrogate inside the payload are accepted and delivered exactly as stored", async () => {
    const { uid } = await consumerWithEndpoint(api, `${receiver.url}/hook`, { prefix: "payloads" });
    const payload = { nul: NUL, surrogate: LONE_SURROGATE, nested: { [NUL]: [LONE_SURROGATE] } };
    const res = await api.post("/api/v1/messages", { consumer: uid, event_type: "a.b", payload });
    expect(res.status, res.text).toBe(202);
    const got = await waitFor(() => receiver.received[0], { what: "the delivery" });
    const [stored] = await getSql()<{ payload: string }[]>`select payload from messages where id = ${res.body.id}`;
    expect(got.body).toBe(stored!.payload);
    // JSON escapes both, so the bytes on the wire are plain ASCII and parse back to the same strings.
    expect(got.body).toContain("\\u0000");
    expect(got.body).toContain("\\ud800");
    expect(JSON.parse(got.body)).toEqual(payload);
    expect((await api.get(`/api/v1/messages/${res.body.id}`)).body.payload).toEqual(payload);
  });

  it("keeps payload search working beside a payload that PostgreSQL's jsonb cannot hold", async () => {
    const { uid } = await createConsumer(api, {}, "searchable");
    for (const payload of [{ order: "o-1", note: NUL }, { order: "o-1", note: LONE_SURROGATE }, { order: "o-1", note: "plain" }, { order: "o-2" }]) {
      await sendMessage(api, uid, { event_type: "a.b", payload });
    }
    const found = await api.get(`/api/v1/messages?consumer=${uid}&payload_contains=${encodeURIComponent(JSON.stringify({ order: "o-1" }))}`);
    expect(found.status, found.text).toBe(200);
    // The two jsonb refuses cannot be searched; every other payload still can.
    expect(found.body.data.map((m: { id: string }) => m.id)).toHaveLength(1);
    const everywhere = await api.get(`/api/v1/messages?payload_contains=${encodeURIComponent(JSON.stringify({ order: "o-2" }))}`);
    expect(everywhere.status, everywhere.text).toBe(200);
    expect(everywhere.body.data).toHaveLength(1);
  });
});

describe("cursors and time filters", () => {
  const cursor = (text: string) => Buffer.from(text).toString("base64url");
  const id = "msg_" + "0".repeat(26);

  it("one that decodes to a time no row can have, or to anything else this API never returned, is a 400", async () => {
    for (const bad of [
      cursor(`999999999999999.${id}`),
      cursor(`253402300800000.${id}`),
      cursor(`-1.${id}`),
      cursor(`1.${id}x`),
      cursor(`1.${id}\u0000`),
      cursor(""),
      "%%%",
      "a".repeat(201),
    ]) {
      for (const list of ["/api/v1/messages", "/api/v1/consumers", "/api/v1/attempts", "/api/v1/event-types", "/api/v1/consumers/acme/endpoints", "/api/v1/alerts"]) {
        expectProblem(await api.get(`${list}?cursor=${encodeURIComponent(bad)}`), 400, "validation_failed", "cursor");
      }
    }
  });

  it("a time filter outside the years 0001–9999 is a 400 (Postgres has no year 0)", async () => {
    for (const path of ["/api/v1/messages?since=", "/api/v1/messages?until=", "/api/v1/attempts?since=", "/api/v1/alerts?since=", `/api/v1/endpoints/${endpointId}/stats?since=`]) {
      expectProblem(await api.get(`${path}0000-01-01T00:00:00Z`), 400, "validation_failed");
      expect((await api.get(`${path}0001-01-01T00:00:00Z`)).status).toBe(200);
    }
    expectProblem(await api.post("/api/v1/consumers/acme/recover", { since: "0000-01-01T00:00:00Z", dry_run: true }), 422, "validation_failed", "since");
  });

  it("one this API could have returned still pages", async () => {
    const res = await api.get(`/api/v1/messages?cursor=${cursor(`253402300799999.${id}`)}`);
    expect(res.status, res.text).toBe(200);
  });
});

describe("endpoint custom headers", () => {
  it("a value that is not visible ASCII or Latin-1, or a name that is not a token, is a 422 at create and at update", async () => {
    const cases: [Record<string, string>, string][] = [
      [{ "X-Name": "日本" }, "headers.X-Name"],
      [{ "X-Emoji": "ok 🙂" }, "headers.X-Emoji"],
      [{ "X-Bell": "a\u0007b" }, "headers.X-Bell"],
      [{ "X-Del": "a\u007fb" }, "headers.X-Del"],
      [{ "X-C1": "a\u0085b" }, "headers.X-C1"],
      [{ "X-Line": "a\r\nX-Injected: 1" }, "headers.X-Line"],
      [{ "Bad Name": "1" }, "headers.Bad Name"],
      [{ "X-Ü": "1" }, "headers.X-Ü"],
    ];
    for (const [headers, path] of cases) {
      expectProblem(await api.post("/api/v1/consumers/acme/endpoints", { url: "https://hooks.acme.test/h", headers }), 422, "validation_failed", path);
      expectProblem(await api.patch(`/api/v1/endpoints/${endpointId}`, { headers }), 422, "validation_failed", path);
    }
    expect((await api.get(`/api/v1/endpoints/${endpointId}`)).body.headers).toEqual({});
  });

  describe("what is accepted is sent as given", () => {
    const receiver = runReceiver();
    runTestWorker();

    it("visible ASCII, tabs, spaces and Latin-1 reach the receiver", async () => {
      const { uid } = await createConsumer(api, {}, "headers");
      const headers = { "X-Latin": "café crème", "X-Tab": "a\tb", "X-Symbols": "!#$%&'*+-.^_`|~;=/?" };
      const created = await createEndpoint(api, uid, `${receiver.url}/h`, { headers });
      await sendMessage(api, uid, { event_type: "a.b", payload: {} });
      const attempt = await waitFor(async () => (await getSql()`select success, error from attempts where endpoint_id = ${created.id}`)[0], {
        what: "the attempt",
      });
      expect(attempt).toEqual({ success: true, error: null });
      const got = receiver.received[0]!;
      // Node reads header bytes as Latin-1, as undici writes them.
      expect(got.headers["x-latin"]).toBe("café crème");
      expect(got.headers["x-tab"]).toBe("a\tb");
      expect(got.headers["x-symbols"]).toBe(headers["X-Symbols"]);
    });
  });
});

describe("IPv6 literals whose embedded IPv4 once made the URL check throw (500)", () => {
  const urls = ["https://[::ffff:0:7f00:1]/", "https://[::ffff:0:808:808]/x", "https://[64:ff9b:1::a9fe:a9fe]/", "https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/"];

  it.each(urls)("%s is judged at create, update and as an alert channel's URL, never a 500", async (url) => {
    await withEnv({ ALLOW_PRIVATE_ENDPOINTS: "false" }, async () => {
      const public_ = url.includes("808:808");
      const created = await api.post("/api/v1/consumers/acme/endpoints", { url });
      const patched = await api.patch(`/api/v1/endpoints/${endpointId}`, { url });
      const channel = await api.post("/api/v1/alert-channels", { kind: "webhook", name: "c", config: { url } });
      for (const res of [created, patched, channel]) {
        if (public_) expect(res.status, res.text).toBeLessThan(300);
        else expectProblem(res, 422, "endpoint_url_forbidden");
      }
      if (public_) {
        await api.del(`/api/v1/endpoints/${created.body.id}`);
        await api.del(`/api/v1/alert-channels/${channel.body.id}`);
        await api.patch(`/api/v1/endpoints/${endpointId}`, { url: "https://hooks.acme.test/x" });
      }
    });
  });
});

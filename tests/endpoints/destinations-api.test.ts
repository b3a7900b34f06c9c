import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getConfig } from "../../lib/config";
import { decrypt, decryptionKeys, keyIdOf } from "../../lib/crypto/encryption";
import { reencryptSecrets } from "../../lib/crypto/reencrypt";
import { getDb } from "../../lib/db/client";
import { endpoints } from "../../lib/db/schema";
import { systemCtx } from "../../lib/open-ctx";
import { apiClient, expectProblem, type Api } from "../helpers/api";
import { withEnv } from "../helpers/env";
import { createConsumer } from "../helpers/fixtures";

// The endpoints API's `kind` and `target` (docs/api.md, Destinations): what is stored, what is
// shown, what is refused. Delivering into real brokers is tests/destinations/.

let api: Api;
let consumer: string;
beforeAll(async () => {
  api = await apiClient();
  consumer = (await createConsumer(api, {}, "dest")).uid;
});

const AMQP = { url: "amqps://billing:s3cret-pw@mq.example.com:5671/prod", exchange: "webhooks", routing_key: "invoice.paid" };
const REDIS = { url: "rediss://default:r3dis-pw@cache.example.com:6380/2", stream: "events", max_len: 1000 };

const create = (body: Record<string, unknown>) => api.post(`/api/v1/consumers/${consumer}/endpoints`, body);
const row = async (id: string) => (await getDb().select().from(endpoints).where(eq(endpoints.id, id)))[0]!;
const plaintextOf = (target: unknown) => decrypt((target as { url_ciphertext: string }).url_ciphertext, decryptionKeys(getConfig()));

describe("creating a broker endpoint", () => {
  it("stores the URL sealed and answers it masked, everywhere the endpoint is read", async () => {
    const res = await create({ kind: "amqp", target: AMQP, description: "queue" });
    expect(res.status).toBe(201);
    const masked = "amqps://billing:****@mq.example.com:5671/prod";
    expect(res.body).toMatchObject({
      kind: "amqp",
      target: { url: masked, exchange: "webhooks", routing_key: "invoice.paid" },
      url: `${masked} (exchange "webhooks", routing key "invoice.paid")`,
      headers: {},
      svix_headers: false,
    });
    expect(Object.keys(res.body.target).sort()).toEqual(["exchange", "routing_key", "url"]);
    for (const read of [res, await api.get(`/api/v1/endpoints/${res.body.id}`), await api.get(`/api/v1/consumers/${consumer}/endpoints`), await api.get("/api/v1/endpoints")]) {
      expect(read.status).toBeLessThan(300);
      expect(read.text).not.toContain("s3cret-pw");
    }
    const stored = await row(res.body.id);
    expect(stored.destination).toBe("amqp");
    expect(JSON.stringify(stored)).not.toContain("s3cret-pw");
    expect(plaintextOf(stored.target)).toBe(AMQP.url);

    const redis = await create({ kind: "redis_stream", target: REDIS });
    expect(redis.status).toBe(201);
    expect(redis.body).toMatchObject({ kind: "redis_stream", target: { url: "rediss://default:****@cache.example.com:6380/2", stream: "events", max_len: 1000 } });
    expect(redis.text).not.toContain("r3dis-pw");
  });

  it("refuses what the kind does not take, field by field", async () => {
    expectProblem(await create({ kind: "amqp" }), 422, "validation_failed", "target");
    expectProblem(await create({ kind: "amqp", target: { ...AMQP, exchange: 7 } }), 422, "validation_failed", "target.exchange");
    expectProblem(await create({ kind: "amqp", target: { ...AMQP, stream: "x" } }), 422, "validation_failed", "target");
    expectProblem(await create({ kind: "amqp", target: AMQP, url: "https://x.example/" }), 422, "validation_failed", "url");
    expectProblem(await create({ kind: "amqp", target: AMQP, headers: { "x-a": "1" } }), 422, "validation_failed", "headers");
    expectProblem(await create({ kind: "amqp", target: { ...AMQP, url: "https://mq.example.com/" } }), 422, "validation_failed", "target.url");
    expectProblem(await create({ kind: "redis_stream", target: { ...REDIS, url: AMQP.url } }), 422, "validation_failed", "target.url");
    expectProblem(await create({ kind: "redis_stream", target: { ...REDIS, max_len: 0 } }), 422, "validation_failed", "target.max_len");
    expectProblem(await create({ kind: "sqs", target: AMQP }), 422, "validation_failed", "kind");
    expectProblem(await create({ kind: "amqp", target: { ...AMQP, url: "amqps://u:****@mq.example.com/" } }), 422, "validation_failed", "target.url");
  });

  it("holds the broker's host to the SSRF rules, and a plaintext scheme to ALLOW_HTTP_ENDPOINTS", async () => {
    await withEnv({ ALLOW_PRIVATE_ENDPOINTS: "false", ALLOW_HTTP_ENDPOINTS: "false" }, async () => {
      for (const url of ["amqps://u:p@127.0.0.1/", "amqps://u:p@localhost/", "amqps://u:p@[::1]:5671/", "amqps://u:p@169.254.169.254/"]) {
        expectProblem(await create({ kind: "amqp", target: { ...AMQP, url } }), 422, "endpoint_url_forbidden", "target.url");
      }
      expectProblem(await create({ kind: "redis_stream", target: { ...REDIS, url: "redis://:p@cache.example.com/" } }), 422, "endpoint_url_forbidden", "target.url");
      expect((await create({ kind: "redis_stream", target: REDIS })).status).toBe(201);
    });
  });

  it("leaves http as it was: url required (kind http or none), no target", async () => {
    expectProblem(await create({ description: "no url" }), 422, "validation_failed", "url");
    expectProblem(await create({ kind: "http" }), 422, "validation_failed", "url");
    expectProblem(await create({ url: "https://h.example/", target: AMQP }), 422, "validation_failed", "target");
    const res = await create({ kind: "http", url: "https://h.example/hook" });
    expect(res.body).toMatchObject({ kind: "http", target: null, url: "https://h.example/hook" });
    expect((await create({ url: "https://h.example/other" })).body).toMatchObject({ kind: "http", target: null });
  });
});

describe("updating a broker endpoint", () => {
  it("keeps the credentials when the masked URL comes back as shown, and takes new ones with a new URL", async () => {
    const { body: endpoint } = await create({ kind: "amqp", target: AMQP });
    const sealed = (await row(endpoint.id)).target as { url_ciphertext: string };

    const same = await api.patch(`/api/v1/endpoints/${endpoint.id}`, { target: { ...endpoint.target, routing_key: "invoice.*" } });
    expect(same.status).toBe(200);
    expect(same.body.target).toEqual({ ...endpoint.target, routing_key: "invoice.*" });
    expect(((await row(endpoint.id)).target as { url_ciphertext: string }).url_ciphertext).toBe(sealed.url_ciphertext);

    // The masked password never goes to another host.
    expectProblem(await api.patch(`/api/v1/endpoints/${endpoint.id}`, { target: { ...endpoint.target, url: endpoint.target.url.replace("mq.example.com", "evil.example.com") } }), 422, "validation_failed", "target.url");
    const moved = await api.patch(`/api/v1/endpoints/${endpoint.id}`, { target: { ...AMQP, url: "amqps://billing:n3w-pw@mq2.example.com/prod" } });
    expect(moved.body.target.url).toBe("amqps://billing:****@mq2.example.com/prod");
    expect(plaintextOf((await row(endpoint.id)).target)).toBe("amqps://billing:n3w-pw@mq2.example.com/prod");
    expect(moved.text).not.toContain("n3w-pw");

    // A change of kind brings what the new kind needs.
    expectProblem(await api.patch(`/api/v1/endpoints/${endpoint.id}`, { kind: "http" }), 422, "validation_failed", "url");
    expectProblem(await api.patch(`/api/v1/endpoints/${endpoint.id}`, { kind: "redis_stream" }), 422, "validation_failed", "target");
    expectProblem(await api.patch(`/api/v1/endpoints/${endpoint.id}`, { url: "https://h.example/" }), 422, "validation_failed", "url");
    const http = await api.patch(`/api/v1/endpoints/${endpoint.id}`, { kind: "http", url: "https://h.example/now-http" });
    expect(http.body).toMatchObject({ kind: "http", target: null, url: "https://h.example/now-http" });
    expect((await row(endpoint.id)).target).toBeNull();
    await api.patch(`/api/v1/endpoints/${endpoint.id}`, { headers: { "x-team": "billing" }, svix_headers: true });
    const back = await api.patch(`/api/v1/endpoints/${endpoint.id}`, { kind: "redis_stream", target: REDIS });
    // HTTP's own headers go with HTTP: a broker kind never sends them.
    expect(back.body).toMatchObject({ kind: "redis_stream", target: { stream: "events" }, headers: {}, svix_headers: false });
  });

  it("re-encrypts the sealed URLs under a new ENCRYPTION_KEY with the signing secrets", async () => {
    const { body: endpoint } = await create({ kind: "redis_stream", target: REDIS });
    const oldKey = process.env.ENCRYPTION_KEY!;
    const newKey = randomBytes(32).toString("hex");
    await withEnv({ ENCRYPTION_KEY: newKey, ENCRYPTION_KEYS_PREVIOUS: oldKey }, async () => {
      const counts = await reencryptSecrets({ ctx: systemCtx() });
      expect(counts.endpointTargets).toBeGreaterThanOrEqual(1);
      const target = (await row(endpoint.id)).target as { url_ciphertext: string };
      expect(target.url_ciphertext.split(".")[1]).toBe(keyIdOf(Buffer.from(newKey, "hex")));
      expect(decrypt(target.url_ciphertext, [Buffer.from(newKey, "hex")])).toBe(REDIS.url);
      expect((await reencryptSecrets({ ctx: systemCtx() })).endpointTargets).toBe(0);
    });
  });
});

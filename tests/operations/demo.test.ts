import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { createApiKey } from "../../lib/api-keys";
import { getDb } from "../../lib/db/client";
import { apiKeys, operators } from "../../lib/db/schema";
import { flakyOutcome } from "../../lib/demo/answer-receiver";
import { hasCredentials, seedDemo } from "../../lib/runtime/seed-demo";
import { call } from "../helpers/api";
import { withEnv } from "../helpers/env";
import { systemCtx } from "../../lib/open-ctx";

/**
 * The embedded demo's seeding (the verbs the API uses, once) and its receivers (signature first,
 * then each one's answer). tests/operations/e2e-start.test.ts runs the same through `npm start` with a real
 * worker delivering to them.
 */
const APP_URL = "http://127.0.0.1:3999";

function signed(secret: string, id: string, body = JSON.stringify({ invoice_id: "in_1" })) {
  const now = new Date();
  return {
    rawBody: body,
    key: null,
    headers: {
      "content-type": "application/json",
      "webhook-id": id,
      "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
      "webhook-signature": new Webhook(secret).sign(id, now, body),
    },
  };
}

/** Message ids whose flaky answer is `outcome` (the hash decides; a handful of tries finds one). */
function idWith(outcome: ReturnType<typeof flakyOutcome>): string {
  for (let i = 0; ; i++) if (flakyOutcome(`msg_demo_${i}`) === outcome) return `msg_demo_${i}`;
}

describe("the embedded demo", () => {
  it("keeps the login and key when APP_URL is one the demo may not send to, and seeds no consumer", async () => {
    await withEnv({ ALLOW_PRIVATE_ENDPOINTS: "false", ALLOWED_ENDPOINT_CIDRS: "127.0.0.0/8" }, async () => {
      const seeded = await seedDemo({ ctx: systemCtx(), appUrl: "http://10.1.2.3:3000" });
      expect(seeded).toMatchObject({ email: "admin@example.com", consumer: null, consumerError: expect.stringContaining("10.1.2.3") });
    });
    expect(await hasCredentials(systemCtx())).toBe(true);
    const { key } = await createApiKey({ ctx: systemCtx(), input: { name: "look" } });
    expect((await call("GET", "/api/v1/consumers/acme", { key })).status).toBe(404);
    await getDb().delete(apiKeys);
    await getDb().delete(operators);
  });

  it("seeds Acme Corp, its event types and three endpoints on the app's receivers, once", async () => {
    const seeded = await seedDemo({ ctx: systemCtx(), appUrl: APP_URL });
    expect(seeded).toMatchObject({ email: "admin@example.com", apiKey: expect.stringMatching(/^sk_/), consumer: "acme", consumerError: null });
    const key = seeded!.apiKey;
    const endpoints = (await call("GET", "/api/v1/consumers/acme/endpoints", { key })).body.data as { url: string; event_types: string[] | null }[];
    expect(endpoints.map((e) => e.url).sort()).toEqual(["flaky", "ok", "retired"].map((name) => `${APP_URL}/api/demo/receiver/${name}`));
    const types = (await call("GET", "/api/v1/event-types", { key })).body.data as { name: string; description: string; example: unknown }[];
    expect(types.map((t) => t.name).sort()).toEqual(["invoice.paid", "subscription.canceled", "user.created"]);
    expect(types.every((t) => t.description && t.example)).toBe(true);
    expect(await seedDemo({ ctx: systemCtx(), appUrl: APP_URL })).toBeNull();
    expect((await call("GET", "/api/v1/consumers", { key })).body.data).toHaveLength(1);
  });

  it("serves receivers that verify the signature, then answer 200, 503 once, or 410", async () => {
    const { key } = await createApiKey({ ctx: systemCtx(), input: { name: "receivers" } });
    const endpoints = (await call("GET", "/api/v1/consumers/acme/endpoints", { key })).body.data as { id: string; url: string }[];
    const secretOf = async (name: string) =>
      (await call("GET", `/api/v1/endpoints/${endpoints.find((e) => e.url.endsWith(`/${name}`))!.id}/secret`, { key })).body.key as string;
    const ok = await secretOf("ok");
    const post = (name: string, request: ReturnType<typeof signed>) => call("POST", `/api/demo/receiver/${name}`, request);

    // Off unless npm start runs the embedded demo.
    expect((await post("ok", signed(ok, "msg_off"))).status).toBe(404);

    await withEnv({ WEBHOOK_ADMIN_DEMO: "true" }, async () => {
      expect(await post("ok", signed(ok, "msg_1"))).toMatchObject({ status: 200, body: { received: "msg_1" } });
      // Another endpoint's secret, a tampered body, no signature: 401 problem+json.
      const wrong = await post("ok", signed(await secretOf("retired"), "msg_2"));
      expect(wrong.status).toBe(401);
      expect(wrong.headers.get("content-type")).toBe("application/problem+json");
      const tampered = signed(ok, "msg_3");
      expect((await post("ok", { ...tampered, rawBody: tampered.rawBody.replace("in_1", "in_2") })).status).toBe(401);
      expect((await call("POST", "/api/demo/receiver/ok", { ...signed(ok, "msg_4"), headers: { "content-type": "application/json" } })).status).toBe(401);
      expect((await post("unknown", signed(ok, "msg_5"))).status).toBe(404);

      const flaky = await secretOf("flaky");
      const refused = idWith("fail");
      expect((await post("flaky", signed(flaky, refused))).status).toBe(503);
      expect((await post("flaky", signed(flaky, refused))).status).toBe(200);
      expect((await post("flaky", signed(flaky, idWith("ok")))).status).toBe(200);

      const gone = await post("retired", signed(await secretOf("retired"), "msg_6"));
      expect(gone).toMatchObject({ status: 410, body: { code: "gone" } });
    });
  });

  it("refuses about a quarter of the flaky receiver's messages and slows about a tenth", () => {
    const outcomes = Array.from({ length: 2000 }, (_, i) => flakyOutcome(`msg_${i}`));
    const share = (o: string) => outcomes.filter((x) => x === o).length / outcomes.length;
    expect(share("fail")).toBeGreaterThan(0.2);
    expect(share("fail")).toBeLessThan(0.3);
    expect(share("slow")).toBeGreaterThan(0.06);
    expect(share("slow")).toBeLessThan(0.15);
  });
});

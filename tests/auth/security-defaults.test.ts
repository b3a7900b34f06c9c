import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../../lib/api-keys";
import { getConfig, resetConfigForTests } from "../../lib/config";
import { closeDb } from "../../lib/db/client";
import { startMetricsServer } from "../../worker/metrics";
import { apiClient, call } from "../helpers/api";
import { createConsumer } from "../helpers/fixtures";
import { portalSession } from "../helpers/portal";
import { systemCtx } from "../../lib/open-ctx";

/** What a stranger on the network can learn or cost: health answers, the worker's metrics, failed logins. */
process.env.API_AUTH_FAILURES_PER_MINUTE = "5";

/** Collects the JSON log lines written while `fn` runs. */
async function captureLog<T>(fn: () => Promise<T>): Promise<{ result: T; lines: string[] }> {
  const lines: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  const level = process.env.LOG_LEVEL;
  process.env.LOG_LEVEL = "warn";
  process.stderr.write = ((chunk: string | Uint8Array) => (lines.push(String(chunk)), true)) as typeof process.stderr.write;
  try {
    return { result: await fn(), lines };
  } finally {
    process.stderr.write = write;
    process.env.LOG_LEVEL = level;
  }
}

describe("GET /api/health", () => {
  it("answers `unavailable` without the driver's error, which goes to the log", async () => {
    const good = process.env.DATABASE_URL!;
    const missing = new URL(good);
    missing.pathname = "/wa_health_missing_db";
    await closeDb();
    process.env.DATABASE_URL = missing.toString();
    try {
      const { result: res, lines } = await captureLog(() => call("GET", "/api/health"));
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ status: "unavailable", version: expect.any(String), database: { ok: false, latency_ms: expect.any(Number) } });
      expect(res.text).not.toMatch(/wa_health_missing_db|does not exist/);
      expect(lines.some((l) => l.includes("wa_health_missing_db") && l.includes("does not exist"))).toBe(true);
    } finally {
      await closeDb();
      process.env.DATABASE_URL = good;
    }
    expect((await call("GET", "/api/health")).body).toMatchObject({ status: "ok", database: { ok: true } });
  });
});

describe("the worker's /metrics", () => {
  it("listens on 127.0.0.1 by default, and where WORKER_METRICS_HOST says", async () => {
    const local = await startMetricsServer(0, getConfig().WORKER_METRICS_HOST);
    try {
      const { address, port } = local!.address() as AddressInfo;
      expect(address).toBe("127.0.0.1");
      expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(200);
    } finally {
      local?.close();
    }
    process.env.WORKER_METRICS_HOST = "::1";
    resetConfigForTests();
    try {
      const wide = await startMetricsServer(0, getConfig().WORKER_METRICS_HOST);
      expect((wide!.address() as AddressInfo).address).toBe("::1");
      wide?.close();
    } finally {
      delete process.env.WORKER_METRICS_HOST;
      resetConfigForTests();
    }
  });
});

describe("failed API-key authentication", () => {
  const get = (key: string, headers: Record<string, string> = {}) => call("GET", "/api/v1/consumers", { key, headers });
  const unknown = () => `sk_unknown${Math.random().toString(36).slice(2)}`;

  beforeAll(() => {
    process.env.TRUST_PROXY = "true";
    resetConfigForTests();
  });
  afterAll(() => {
    delete process.env.TRUST_PROXY;
    resetConfigForTests();
  });

  it("is bounded per client address: 429 with Retry-After before the key is looked up", async () => {
    const { key: inUse } = await createApiKey({ ctx: systemCtx(), input: { name: "in use" } });
    const from = { "x-forwarded-for": "198.51.100.1, 203.0.113.7" };
    expect((await get(inUse, from)).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await get(unknown(), from)).status).toBe(401);
    const limited = await get(unknown(), from);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("content-type")).toBe("application/problem+json");
    expect(limited.body.code).toBe("rate_limited");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    // Over the limit, nothing is looked up: a valid key this process has not seen yet waits like
    // any other token from there (that client's own failures), a portal session too.
    const { key: fresh } = await createApiKey({ ctx: systemCtx(), input: { name: "fresh" } });
    expect((await get(fresh, from)).status).toBe(429);
    const api = await apiClient();
    const { uid } = await createConsumer(api, { name: "Blocked Co" });
    const { token: session } = await portalSession(api, uid);
    expect((await call("GET", "/api/v1/consumers", { key: session, headers: from })).status).toBe(429);
    expect((await get(unknown(), from)).status).toBe(429);
    // A key already in use from there keeps working; another address is not affected, nor is the
    // client's own claim in the first X-Forwarded-For entry (only the proxy's last one counts).
    expect((await get(inUse, from)).status).toBe(200);
    expect((await get(unknown(), { "x-forwarded-for": "203.0.113.8" })).status).toBe(401);
    expect((await get(unknown(), { "x-forwarded-for": "198.51.100.99, 203.0.113.7" })).status).toBe(429);
  });

  it("without TRUST_PROXY, is per token: X-Forwarded-For buys a repeated bad token no fresh bucket, and others are not refused", async () => {
    process.env.TRUST_PROXY = "false";
    resetConfigForTests();
    try {
      const bad = unknown();
      for (let i = 0; i < 5; i++) expect((await get(bad, { "x-forwarded-for": `192.0.2.${i}` })).status).toBe(401);
      expect((await get(bad, { "x-forwarded-for": "192.0.2.200" })).status).toBe(429);
      expect((await get(bad)).status).toBe(429);
      expect((await get(unknown())).status).toBe(401);
    } finally {
      process.env.TRUST_PROXY = "true";
      resetConfigForTests();
    }
  });

  it("stops a revoked key that was in use like any unknown one", async () => {
    const { key, id } = await createApiKey({ ctx: systemCtx(), input: { name: "revoked" } });
    const from = { "x-forwarded-for": "203.0.113.50" };
    expect((await get(key, from)).status).toBe(200);
    const { revokeApiKey } = await import("../../lib/api-keys");
    await revokeApiKey({ ctx: systemCtx(), input: { ref: id } });
    for (let i = 0; i < 5; i++) expect((await get(key, from)).status).toBe(401);
    expect((await get(key, from)).status).toBe(429);
  });
});

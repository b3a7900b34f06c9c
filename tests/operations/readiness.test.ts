import { beforeAll, describe, expect, it } from "vitest";
import { closeDb, getSql } from "../../lib/db/client";
import packageJson from "../../package.json";
import { call } from "../helpers/api";
import { startBuiltApp, startProductionWeb } from "../helpers/built-app";
import { waitFor } from "../helpers/receiver";

/**
 * Liveness (/api/health: the process answers and reaches its database, with its version) and
 * readiness (/api/health/ready: and it has every migration, and it is not stopping) — the routes
 * in-process, and a real `next start` asked to stop.
 */
describe("GET /api/health", () => {
  it("reports the version", async () => {
    const res = await call("GET", "/api/health");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "ok", version: packageJson.version, database: { ok: true } });
  });
});

describe("GET /api/health/ready", () => {
  it("is 200 when the database has every migration this code was built with", async () => {
    const res = await call("GET", "/api/health/ready");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ready", version: packageJson.version });
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("is 503 while a migration is pending, and ready again once it is applied", async () => {
    // drizzle's table says the newest migration is not applied (its time moved before the journal's).
    const sql = getSql();
    await sql`update drizzle.__drizzle_migrations set created_at = created_at - 1000 where created_at = (select max(created_at) from drizzle.__drizzle_migrations)`;
    try {
      const res = await call("GET", "/api/health/ready");
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ status: "not_ready", reason: "migrations_pending", version: packageJson.version });
    } finally {
      await sql`update drizzle.__drizzle_migrations set created_at = created_at + 1000 where created_at = (select max(created_at) from drizzle.__drizzle_migrations)`;
    }
    expect((await call("GET", "/api/health/ready")).status).toBe(200);
  });

  it("is 503 when the database does not answer, naming no details", async () => {
    const good = process.env.DATABASE_URL!;
    const missing = new URL(good);
    missing.pathname = "/wa_ready_missing_db";
    await closeDb();
    process.env.DATABASE_URL = missing.toString();
    try {
      const res = await call("GET", "/api/health/ready");
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ status: "not_ready", reason: "database_unavailable", version: packageJson.version });
    } finally {
      await closeDb();
      process.env.DATABASE_URL = good;
    }
  });
});

describe("a web process asked to stop (SIGTERM)", () => {
  // Long enough that the requests made after SIGTERM are surely inside it, however busy the machine
  // (at 3 s, a slow request could land after the close); the test waits it out to see the close.
  const SHUTDOWN_DELAY_MS = 30_000;
  let app: Awaited<ReturnType<typeof startBuiltApp>>;
  // The build (next build, shared with the browser suites) is made here when a source changed.
  beforeAll(async () => {
    app = await startBuiltApp({ SHUTDOWN_DELAY: `${SHUTDOWN_DELAY_MS}ms`, LOG_LEVEL: "info" });
  }, 600_000);

  it("answers ready 503 at once, goes on serving for SHUTDOWN_DELAY, then closes", async () => {
    try {
      expect((await fetch(`${app.url}/api/health/ready`)).status).toBe(200);
      const signalled = Date.now();
      app.signal("SIGTERM");
      await waitFor(async () => (await fetch(`${app.url}/api/health/ready`).catch(() => null))?.status === 503, { what: "readiness to turn 503" });
      // Still serving: liveness and the API answer while the load balancer moves away.
      expect((await fetch(`${app.url}/api/health`)).status).toBe(200);
      expect(await (await fetch(`${app.url}/api/health/ready`)).json()).toMatchObject({ status: "not_ready", reason: "shutting_down" });
      await app.exited;
      expect(Date.now() - signalled).toBeGreaterThanOrEqual(SHUTDOWN_DELAY_MS - 500);
      expect(app.output()).toContain('"msg":"web app stopping: /api/health/ready answers 503, then the server closes"');
    } finally {
      await app.stop();
    }
    // The delay's 30 s and the close after it.
  }, 90_000);
});

describe("npm run web with NODE_ENV=production", () => {
  it("runs the build npm run build made, without compiling", async () => {
    const web = await startProductionWeb({ LOG_LEVEL: "info", MIGRATE_ON_START: "false" });
    try {
      console.log(`npm run web (NODE_ENV=production, built): ready in ${(web.readyAfterMs / 1000).toFixed(1)} s`);
      expect(web.output()).not.toMatch(/Building the web app|rebuilding/);
    } finally {
      await web.stop();
    }
    expect(web.output()).toContain("Stopped.");
  });
});

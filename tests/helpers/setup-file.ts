import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { afterAll, inject } from "vitest";
import { CONFIG_KEYS } from "../../lib/config";
import { closeDb } from "../../lib/db/client";
import { TEST_APP_PORT } from "./origin";

/**
 * Before each test file: a database of its own, cloned from the migrated template, and a clean
 * configuration (policy numbers shrunk to test size; each file may override them at its top).
 */
const serverUrl = inject("serverUrl");
const template = inject("templateDatabase");
const templatePid = template.split("_").pop();
const database = `wa_test_${randomBytes(5).toString("hex")}_${templatePid}`;

const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
await admin.unsafe(`create database ${database} template ${template}`);

const url = new URL(serverUrl);
url.pathname = `/${database}`;
// Whatever the caller's shell holds (PORT=3200, TRUST_PROXY, SMTP_URL…), a test sees only what
// it sets: every variable the configuration reads is unset first, and the two read outside
// lib/config.ts: the embedded database's directory (lib/runtime/database.ts) and pretty logs
// (lib/logger.ts, set below).
for (const key of [...CONFIG_KEYS, "WEBHOOK_ADMIN_DATA_DIR", "LOG_PRETTY"]) delete process.env[key];
// And OpenTelemetry's standard variables: tracing is on only where a test turns it on (tests/operations/tracing.test.ts).
for (const key of Object.keys(process.env)) if (key.startsWith("OTEL_")) delete process.env[key];
Object.assign(process.env, {
  DATABASE_URL: url.toString(),
  // The app's origin, http://localhost:$PORT, is the one the in-process API is called at
  // (tests/helpers/origin.ts APP_ORIGIN); processes a test starts get a port of their own.
  PORT: String(TEST_APP_PORT),
  ENCRYPTION_KEY: randomBytes(32).toString("hex"),
  AUTH_SECRET: randomBytes(32).toString("base64url"),
  ALLOW_PRIVATE_ENDPOINTS: "true",
  ALLOW_HTTP_ENDPOINTS: "true",
  WORKER_METRICS_PORT: "0",
  // A built app stopped by a test closes at once (tests/operations/readiness.test.ts sets its own delay).
  SHUTDOWN_DELAY: "0",
  LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "error",
  // JSON lines at a terminal too: tests read the log as the processes write it.
  LOG_PRETTY: "false",
});

afterAll(async () => {
  await closeDb();
  await admin.unsafe(`drop database if exists ${database} with (force)`);
  await admin.end();
});

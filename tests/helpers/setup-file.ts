import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { afterAll, inject } from "vitest";
import { closeDb } from "../../lib/db/client";

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
for (const key of Object.keys(process.env)) {
  if (/^(DELIVERY_|ENDPOINT_|CIRCUIT_|ALERT_|SECRET_|IDEMPOTENCY_|MAX_PAYLOAD|ALLOW|WORKER_|RESPONSE_|API_RATE|RECOVERY_|LOGIN_|OPERATOR_SESSION)/.test(key)) delete process.env[key];
}
Object.assign(process.env, {
  DATABASE_URL: url.toString(),
  ENCRYPTION_KEY: randomBytes(32).toString("hex"),
  AUTH_SECRET: randomBytes(32).toString("base64url"),
  ALLOW_PRIVATE_ENDPOINTS: "true",
  ALLOW_HTTP_ENDPOINTS: "true",
  WORKER_METRICS_PORT: "0",
  LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "error",
});

afterAll(async () => {
  await closeDb();
  await admin.unsafe(`drop database if exists ${database} with (force)`);
  await admin.end();
});

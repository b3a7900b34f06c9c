import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfigForTests } from "../../lib/config";
import { getSql } from "../../lib/db/client";
import { raiseAlerts } from "../../lib/jobs/raise-alert";
import { logger } from "../../lib/logger";
import { apiClient, call } from "../helpers/api";
import { freePort } from "../helpers/built-app";
import { createConsumer, createEndpoint, sendMessage } from "../helpers/fixtures";
import { portalSession } from "../helpers/portal";
import { startReceiver, waitFor } from "../helpers/receiver";
import { spawnWorker } from "../helpers/worker-process";

/**
 * The logs of a real run carry none of the secrets that run made or used: a worker process at
 * LOG_LEVEL=debug delivering signed webhooks with a secret header and sending alerts through
 * channels whose URLs and tokens are credentials (and an SMTP URL with a password that fails), and
 * the web app's routes in this process at debug too. Every line is JSON with a word for its level.
 */
process.env.DELIVERY_SCHEDULE = "0,100ms";
process.env.ALERT_RETRY_SCHEDULE = "0";
process.env.CIRCUIT_FAILURE_THRESHOLD = "1000";

const SLACK_PATH = "/services/T0LOG/B0LOG/slackPathIsTheCredential01";
const CHATWORK_TOKEN = "cwTokenIsACredential0123456789";
const HEADER_SECRET = "hdrValueSecret-7f3a9c2e5b";
const SMTP_PASSWORD = "SmtpPassw0rdNeverLogged";


const webLog: string[] = [];
const realWrite = process.stderr.write.bind(process.stderr);
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let services: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  receiver = await startReceiver((req, res) => res.writeHead(req.url?.startsWith("/fail") ? 503 : 200).end());
  services = await startReceiver((_req, res) => res.writeHead(200).end("ok"));
  process.env.LOG_LEVEL = "debug";
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
    webLog.push(String(chunk));
    return realWrite(chunk, ...rest);
  }) as typeof process.stderr.write;
});

afterAll(async () => {
  process.stderr.write = realWrite;
  process.env.LOG_LEVEL = "error";
  await Promise.all([receiver?.close(), services?.close()]);
});

describe("logs", () => {
  it("never carry a secret the run made or used, and are JSON lines with level, time and msg", async () => {
    const smtpUrl = `smtp://alerts:${SMTP_PASSWORD}@127.0.0.1:${await freePort()}`;
    const env = {
      LOG_LEVEL: "debug",
      SLACK_API_BASE: services.url,
      CHATWORK_API_BASE: `${services.url}/v2`,
      SMTP_URL: smtpUrl,
    };
    Object.assign(process.env, { SLACK_API_BASE: services.url, CHATWORK_API_BASE: `${services.url}/v2` });
    resetConfigForTests();
    const api = await apiClient();
    const secrets: string[] = [api.key, HEADER_SECRET, SLACK_PATH.split("/").pop()!, CHATWORK_TOKEN, SMTP_PASSWORD];
    const dbPassword = decodeURIComponent(new URL(process.env.DATABASE_URL!).password);
    if (dbPassword) secrets.push(dbPassword);

    await createConsumer(api, { uid: "logged", name: "Logged", alert_emails: ["owner@logged.example"] });
    const ok = await createEndpoint(api, "logged", `${receiver.url}/ok`, { headers: { "X-Api-Token": HEADER_SECRET } });
    const failing = await createEndpoint(api, "logged", `${receiver.url}/fail`);
    secrets.push((await api.get(`/api/v1/endpoints/${ok.id}/secret`)).body.key);
    const rotated = await api.post(`/api/v1/endpoints/${ok.id}/secret/rotate`);
    expect(rotated.status).toBe(200);
    secrets.push((await api.get(`/api/v1/endpoints/${ok.id}/secret`)).body.key);

    const channels = await Promise.all([
      api.post("/api/v1/alert-channels", { kind: "slack", name: "slack", config: { webhook_url: `https://hooks.slack.com${SLACK_PATH}` } }),
      api.post("/api/v1/alert-channels", { kind: "chatwork", name: "cw", config: { api_token: CHATWORK_TOKEN, room_id: 7 } }),
      api.post("/api/v1/alert-channels", { kind: "webhook", name: "hook", config: { url: `${services.url}/hook` } }),
      api.post("/api/v1/alert-channels", { kind: "email", name: "mail", config: { to: ["ops@logged.example"] } }),
    ]);
    for (const c of channels) expect(c.status, c.text).toBe(201);
    secrets.push(channels[2]!.body.secret);

    // The portal: a link token and the session it becomes, used once.
    const portal = await portalSession(api, "logged");
    secrets.push(portal.token, portal.linkToken);
    expect((await call("GET", "/api/v1/consumers/logged", { key: portal.token })).status).toBe(200);
    // Unknown keys are refused (and counted), never echoed.
    const unknown = "sk_unknownKeyNeverLogged0123456789";
    secrets.push(unknown);
    expect((await call("GET", "/api/v1/consumers", { key: unknown })).status).toBe(401);

    const worker = await spawnWorker(env);
    let workerLog = "";
    try {
      const sent = await sendMessage(api, "logged", { event_type: "log.test", payload: { hello: "world" } });
      await getSql().begin((tx) => raiseAlerts({ sql: tx }, [{ kind: "endpoint.failing", endpointId: failing.id, data: {} }]));
      // The email channel and the consumer's alert email fail on the closed SMTP port: two "alert failed" lines.
      await waitFor(() => (worker.output().match(/"msg":"alert failed"/g) ?? []).length >= 2 && services.received.length >= 3, {
        timeout: 30_000,
        what: "the alerts to end",
        onTimeout: () => console.log(worker.output()),
      });
      await waitFor(() => worker.output().includes(`"delivery_id"`) && worker.output().includes(`"status_code":503`), { timeout: 30_000, what: "the attempts' debug lines" });
      const attempt = worker
        .output()
        .split("\n")
        .filter((line) => line.includes('"msg":"attempt"'))
        .map((line) => JSON.parse(line))
        .find((line) => line.message_id === sent.id && line.endpoint_id === ok.id);
      expect(attempt).toMatchObject({ level: "debug", delivery_id: expect.stringMatching(/^dlv_/), trigger: "scheduled", status_code: 200 });
    } finally {
      await worker.kill("SIGTERM");
      workerLog = worker.output();
    }
    expect(workerLog).toContain('"msg":"worker stopped"');

    const lines = workerLog.split("\n").filter(Boolean);
    for (const line of lines) {
      const parsed = JSON.parse(line);
      expect(["debug", "info", "warn", "error"]).toContain(parsed.level);
      expect(typeof parsed.msg).toBe("string");
      expect(new Date(parsed.time).toISOString()).toBe(parsed.time);
    }
    const failed = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === "alert failed");
    expect(failed[0]).toMatchObject({ level: "warn", alert_id: expect.stringMatching(/^alr_/), endpoint_id: failing.id });

    // What a careless caller in the web app might hand the logger: the wrapper still redacts it.
    logger.warn(`request with Bearer ${api.key} failed`, {
      headers: { authorization: `Bearer ${api.key}`, cookie: `session=${portal.token}` },
      channel: { kind: "slack", config: { webhook_url: `https://hooks.slack.com${SLACK_PATH}` } },
      smtp: smtpUrl,
      error: new Error(`bad secret ${secrets.at(-1)} for token ${portal.linkToken}`),
    });
    const web = webLog.join("");
    expect(web).toContain('"msg":"request with Bearer sk_[redacted] failed"');
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(8);
      expect(workerLog, `worker log carries ${secret}`).not.toContain(secret);
      expect(web, `web log carries ${secret}`).not.toContain(secret);
    }
    // The base64 body of every whsec_/sk_/ps_/pt_ secret, without its prefix, too.
    for (const secret of secrets.filter((s) => /^(whsec|sk|ps|pt)_/.test(s))) {
      const body = secret.slice(secret.indexOf("_") + 1);
      expect(workerLog).not.toContain(body);
      expect(web).not.toContain(body);
    }
  });
});

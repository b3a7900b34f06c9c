import { spawn, spawnSync } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fillSecret } from "../../lib/receiving/sample-text";
import type { ReceivingSampleId } from "../../lib/receiving/schemas";
import { readPollingSample, readReceivingSample } from "../../lib/receiving/samples";
import { startHttpApp } from "../helpers/http-app";
import { apiClient, type Api } from "../helpers/api";
import { freePort } from "../helpers/built-app";
import { consumerWithEndpoint, createConsumer, sendMessage } from "../helpers/fixtures";
import { waitFor } from "../helpers/receiver";
import { startTestWorker } from "../helpers/worker";

/**
 * The portal's receiver samples, run as they are shown (the file's text with the endpoint's secret
 * filled in, as the guide renders it) as real receivers of real deliveries from the worker: each
 * accepts our signatures, answers a duplicate 2xx without processing it twice, and refuses a
 * tampered body. The Python sample runs where `flask` and `standardwebhooks` can be imported.
 */
const python = spawnSync("python3", ["-c", "import flask, standardwebhooks"], { stdio: "ignore" }).status === 0;
const pythonPoller = spawnSync("python3", ["-c", "import requests, standardwebhooks"], { stdio: "ignore" }).status === 0;

type Runner = { id: ReceivingSampleId; command: string; args: string[]; available: boolean };
const RUNNERS: Runner[] = [
  // Fed on stdin from the project root, so `express` and `standardwebhooks` resolve from its node_modules.
  { id: "node", command: process.execPath, args: ["--input-type=module", "-"], available: true },
  { id: "python", command: "python3", args: ["-"], available: python },
];

let worker: Awaited<ReturnType<typeof startTestWorker>>;
let api: Api;

beforeAll(async () => {
  api = await apiClient();
  await api.post("/api/v1/event-types", { name: "invoice.paid", description: "An invoice was paid.", example: { invoice: "in_example", amount: 100 } });
  worker = await startTestWorker();
});

afterAll(async () => {
  await worker?.stop();
});

/** The sample as a process on `port`: its output so far, and a stop that waits for its exit. */
async function startSample(runner: Runner, code: string, port: number) {
  const child = spawn(runner.command, runner.args, { cwd: path.resolve("."), env: { ...process.env, PORT: String(port) }, stdio: ["pipe", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  let exited = false;
  const done = new Promise<void>((resolve) => child.on("exit", () => ((exited = true), resolve())));
  child.stdin.end(code);
  // Listening once a connection is accepted (any answer will do).
  await waitFor(
    async () => {
      if (exited) throw new Error(`the ${runner.id} sample exited:\n${output}`);
      return (await fetch(`http://127.0.0.1:${port}/`).catch(() => null)) !== null;
    },
    { timeout: 30_000, what: `the ${runner.id} sample to listen`, onTimeout: () => console.log(output) },
  );
  return {
    output: () => output,
    stop: async () => {
      if (!exited) child.kill("SIGTERM");
      await done;
    },
  };
}

type Attempt = { success: boolean; status_code: number | null; request_headers: Record<string, string>; trigger: string };

/** The message's attempts, oldest first, once there are at least `atLeast`. */
async function waitForAttempts(messageId: string, atLeast: number, onTimeout?: () => void): Promise<Attempt[]> {
  return waitFor(
    async () => {
      const answer = await api.get(`/api/v1/messages/${messageId}/attempts`);
      expect(answer.status).toBe(200);
      const attempts = (answer.body.data as Attempt[]).toReversed();
      return attempts.length >= atLeast ? attempts : null;
    },
    { timeout: 30_000, what: `${atLeast} attempt(s) of ${messageId}`, onTimeout },
  );
}

const count = (text: string, needle: string) => text.split(needle).length - 1;

describe.each(RUNNERS)("the $id receiver sample", (runner) => {
  it.runIf(runner.available)("accepts our deliveries, answers a duplicate 2xx without processing it again, and refuses a tampered body", async () => {
    const port = await freePort();
    // A consumer of the test's own, so its messages go to its endpoint alone.
    const { uid: consumer, endpointId } = await consumerWithEndpoint(api, `http://127.0.0.1:${port}/webhooks`, { consumer: { name: "Acme" }, endpoint: { event_types: ["invoice.paid"] }, prefix: "acme" });
    const secret = (await api.get(`/api/v1/endpoints/${endpointId}/secret`)).body.key as string;
    const code = fillSecret(readReceivingSample(runner.id).code, secret);
    expect(code).toContain(secret);
    const sample = await startSample(runner, code, port);
    try {
      // A real message, delivered by the worker: the sample verifies it and the attempt succeeds.
      const payload = { invoice: "in_42", amount: 4200, note: "café ☕" };
      const { id: messageId } = await sendMessage(api, consumer, { payload });
      const [first] = await waitForAttempts(messageId, 1, () => console.log(sample.output()));
      expect(first).toMatchObject({ success: true, status_code: 204 });
      await waitFor(() => sample.output().includes(`${messageId}: processed`), { what: "the sample to process the message", onTimeout: () => console.log(sample.output()) });

      // The same request again (the bytes we stored and signed, with the headers the log kept): a duplicate, 2xx.
      const body = JSON.stringify(payload);
      const headers = { ...first!.request_headers };
      const replay = await fetch(`http://127.0.0.1:${port}/webhooks`, { method: "POST", headers, body });
      expect(replay.status).toBe(204);
      // The same headers over a body changed by one character: refused.
      const tampered = await fetch(`http://127.0.0.1:${port}/webhooks`, { method: "POST", headers, body: body.replace("4200", "4201") });
      expect(tampered.status).toBe(400);
      // JSON serialised another way (the same data, spaced): refused too, so the sample verifies the raw bytes.
      const reserialised = await fetch(`http://127.0.0.1:${port}/webhooks`, { method: "POST", headers, body: JSON.stringify(payload, null, 1) });
      expect(reserialised.status).toBe(400);

      // A resend through the product: a fresh timestamp and signature, the same webhook-id; 2xx, processed once.
      const resend = await api.post(`/api/v1/messages/${messageId}/resend`, { endpoint_id: endpointId });
      expect(resend.status).toBeLessThan(300);
      const attempts = await waitForAttempts(messageId, 2, () => console.log(sample.output()));
      expect(attempts.map((a) => [a.trigger, a.success])).toEqual([["scheduled", true], ["manual", true]]);
      await waitFor(() => count(sample.output(), `${messageId}: already processed`) >= 2, { what: "the sample to see the duplicates", onTimeout: () => console.log(sample.output()) });
      expect(count(sample.output(), `${messageId}: processed`)).toBe(1);

      // A test send is signed like any other and carries webhook-test: true.
      const test = await api.post(`/api/v1/endpoints/${endpointId}/test`, {});
      expect(test.status).toBe(202);
      const testId = test.body.message_id as string;
      const [testAttempt] = await waitForAttempts(testId, 1, () => console.log(sample.output()));
      expect(testAttempt).toMatchObject({ success: true, status_code: 204 });
      expect(testAttempt!.request_headers["webhook-test"]).toBe("true");
      await waitFor(() => sample.output().includes(`${testId}: processed (a test event)`), { what: "the sample to process the test event", onTimeout: () => console.log(sample.output()) });
    } finally {
      await sample.stop();
    }
  });

  it.runIf(runner.available)("refuses a signature made with another secret", async () => {
    const port = await freePort();
    const other = "whsec_" + Buffer.from("another endpoint's 32-byte key!!").toString("base64");
    const sample = await startSample(runner, fillSecret(readReceivingSample(runner.id).code, other), port);
    try {
      const { uid: consumer, endpointId } = await consumerWithEndpoint(api, `http://127.0.0.1:${port}/webhooks`, { consumer: { name: "Acme" }, prefix: "acme" });
      const sent = await sendMessage(api, consumer, { payload: { invoice: "in_43" } });
      const [attempt] = await waitForAttempts(sent.id, 1, () => console.log(sample.output()));
      expect(attempt).toMatchObject({ success: false, status_code: 400 });
      expect(sample.output()).not.toContain(": processed");
      await api.post(`/api/v1/endpoints/${endpointId}/disable`);
    } finally {
      await sample.stop();
    }
  });
});

const POLL_RUNNERS: Runner[] = [
  { id: "node", command: process.execPath, args: ["--input-type=module", "-"], available: true },
  { id: "python", command: "python3", args: ["-"], available: pythonPoller },
];

describe.each(POLL_RUNNERS)("the $id polling sample", (runner) => {
  let app: Awaited<ReturnType<typeof startHttpApp>>;
  beforeAll(async () => {
    app = await startHttpApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  /** A polling endpoint of a consumer of its own, a token for it, and the sample reading it with `secret` (the endpoint's unless given). */
  async function startPoller(secret?: string) {
    const { uid } = await createConsumer(api, { name: "Acme" }, "acme-poll");
    const endpoint = await api.post(`/api/v1/consumers/${uid}/endpoints`, { kind: "polling" });
    expect(endpoint.status, endpoint.text).toBe(201);
    const token = (await api.post(`/api/v1/endpoints/${endpoint.body.id}/poll-tokens`)).body.token as string;
    const key = secret ?? ((await api.get(`/api/v1/endpoints/${endpoint.body.id}/secret`)).body.key as string);
    const code = fillSecret(readPollingSample(runner.id).code, key, `${app.url}/api/v1/endpoints/${endpoint.body.id}/poll`);
    const child = spawn(runner.command, runner.args, { cwd: path.resolve("."), env: { ...process.env, POLL_TOKEN: token }, stdio: ["pipe", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const done = new Promise<void>((resolve) => child.on("exit", () => resolve()));
    child.stdin.end(code);
    return { uid, output: () => output, stop: async () => (child.kill("SIGTERM"), await done) };
  }

  it.runIf(runner.available)("reads the endpoint's messages in order, verifies each, and takes each once", async () => {
    const poller = await startPoller();
    try {
      const ids: string[] = [];
      for (const amount of [100, 200, 300]) ids.push((await sendMessage(api, poller.uid, { payload: { invoice: "in_poll", amount, note: "café ☕" } })).id);
      await waitFor(() => ids.every((id) => poller.output().includes(`${id}: processed`)), { timeout: 30_000, what: "the sample to process the messages", onTimeout: () => console.log(poller.output()) });
      const order = ids.map((id) => poller.output().indexOf(`${id}: processed`));
      expect(order).toEqual([...order].sort((a, b) => a - b));
      for (const id of ids) expect(count(poller.output(), `${id}: processed`)).toBe(1);
      expect(poller.output()).not.toContain("refused");
    } finally {
      await poller.stop();
    }
  });

  it.runIf(runner.available)("refuses a message signed with another secret", async () => {
    const poller = await startPoller("whsec_" + Buffer.from("another endpoint's 32-byte key!!").toString("base64"));
    try {
      const { id } = await sendMessage(api, poller.uid, { payload: { invoice: "in_poll_other" } });
      await waitFor(() => poller.output().includes(`${id}: refused`), { timeout: 30_000, what: "the sample to refuse the message", onTimeout: () => console.log(poller.output()) });
      expect(poller.output()).not.toContain(`${id}: processed`);
    } finally {
      await poller.stop();
    }
  });
});

describe("the samples the guide shows", () => {
  it("each use the official Standard Webhooks library of its language and leave one place for the secret", async () => {
    const { readPollingSamples, readReceivingSamples } = await import("../../lib/receiving/samples");
    const libraries: Record<string, string> = {
      node: 'from "standardwebhooks"',
      python: "from standardwebhooks",
      go: '"github.com/standard-webhooks/standard-webhooks/libraries/go"',
      ruby: 'require "standardwebhooks"',
      php: "use StandardWebhooks\\Webhook;",
    };
    for (const sample of readReceivingSamples()) {
      expect(sample.code, sample.id).toContain(libraries[sample.id]);
      expect(count(sample.code, "{{SECRET}}"), sample.id).toBe(1);
      expect(fillSecret(sample.code, null), sample.id).toContain("whsec_YOUR_ENDPOINT_SECRET");
    }
    for (const sample of readPollingSamples()) {
      expect(sample.code, sample.id).toContain(libraries[sample.id]);
      expect(count(sample.code, "{{SECRET}}"), sample.id).toBe(1);
      expect(count(sample.code, "{{POLL_URL}}"), sample.id).toBe(1);
      expect(sample.code, sample.id).toContain("POLL_TOKEN");
    }
  });
});

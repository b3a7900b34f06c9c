import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { startReceiver } from "../../tests/helpers/receiver";
import { parseConfig } from "../config";
import { REDACTED_HEADER_VALUE } from "../webhooks/headers";
import type { Destination, SendResult } from "./destination";
import { http, type HttpTarget } from "./http";
import { DESTINATIONS, resolveTarget } from "./index";

/** What a kind must have to be in the list: a name of its own, a schema for what it stores, and the stages. */
function registryProblems(list: readonly Destination<unknown, unknown>[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const destination of list) {
    const name = String(destination.kind);
    if (!/^[a-z][a-z0-9_-]*$/.test(name)) problems.push(`${name}: a kind is a lowercase name`);
    if (seen.has(name)) problems.push(`${name}: listed twice`);
    seen.add(name);
    if (!(destination.target instanceof z.ZodType)) problems.push(`${name}: its target is not a zod schema`);
    for (const stage of ["describe", "prepare", "send", "classify"] as const) {
      if (typeof destination[stage] !== "function") problems.push(`${name}: no ${stage}`);
    }
  }
  return problems;
}

const answer = (statusCode: number | null, extra: Partial<SendResult> = {}): SendResult => ({
  statusCode,
  error: null,
  errorDetail: null,
  headers: {},
  responseBody: "",
  durationMs: 1,
  ...extra,
});

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const target: HttpTarget = { url: "https://receiver.example/hook", headers: { authorization: "Bearer t0ken" }, svix_headers: false };
const outgoing = { messageId: "msg_1", endpointId: "ep_1", payload: '{"type":"invoice.paid"}', isTest: false };

describe("the destination registry", () => {
  it("lists every kind with a name of its own, its target's schema and its stages", () => {
    expect(DESTINATIONS.map((d) => d.kind)).toContain("http");
    expect(registryProblems(DESTINATIONS)).toEqual([]);
  });

  it("the check above fails on a kind without a schema or a stage, and on a kind listed twice", () => {
    const { classify: _, ...withoutClassify } = http;
    const broken = [http, { ...http, target: { parse: () => ({}) } }, withoutClassify] as unknown as Destination<unknown, unknown>[];
    expect(registryProblems(broken)).toEqual([
      "http: listed twice",
      "http: its target is not a zod schema",
      "http: listed twice",
      "http: no classify",
    ]);
  });

  it("resolves an endpoint's stored kind and target, or says why it cannot", () => {
    expect(resolveTarget("http", target)).toMatchObject({ destination: http, target, where: target.url });
    expect(resolveTarget("carrier-pigeon", { loft: 7 })).toEqual({
      where: "carrier-pigeon",
      problem: 'the endpoint\'s destination kind "carrier-pigeon" is not one this release knows',
    });
    const invalid = resolveTarget("http", { url: 42, headers: {}, svix_headers: false });
    expect(invalid.problem).toMatch(/^the endpoint's http target is not valid: url /);
  });
});

describe("http: classify", () => {
  const now = Date.parse("2026-12-06T10:00:00Z");
  it.each([
    ["200", answer(200), { success: true, error: null, retryAfterMs: null }],
    ["204", answer(204), { success: true, error: null, retryAfterMs: null }],
    ["301: redirects are never followed", answer(301, { headers: { location: "https://elsewhere.example/" } }), { success: false, error: "redirect_not_followed", retryAfterMs: null }],
    ["410: a failure like any other", answer(410), { success: false, error: null, retryAfterMs: null }],
    ["500", answer(500), { success: false, error: null, retryAfterMs: null }],
    ["500 with Retry-After: not read", answer(500, { headers: { "retry-after": "60" } }), { success: false, error: null, retryAfterMs: null }],
    ["429 with Retry-After in seconds", answer(429, { headers: { "retry-after": "120" } }), { success: false, error: null, retryAfterMs: 120_000 }],
    ["503 with Retry-After as a date", answer(503, { headers: { "retry-after": "Sun, 06 Dec 2026 10:05:00 GMT" } }), { success: false, error: null, retryAfterMs: 300_000 }],
    ["429 without Retry-After", answer(429), { success: false, error: null, retryAfterMs: null }],
    ["a timeout", answer(null, { error: "timeout", errorDetail: "no complete response within 1000 ms" }), { success: false, error: "timeout", retryAfterMs: null }],
    ["a refused connection", answer(null, { error: "connection_refused" }), { success: false, error: "connection_refused", retryAfterMs: null }],
    ["a forbidden address", answer(null, { error: "forbidden_address" }), { success: false, error: "forbidden_address", retryAfterMs: null }],
  ])("%s", (_case, result, verdict) => {
    expect(http.classify(result, now)).toEqual(verdict);
  });
});

describe("http: prepare", () => {
  it("signs with Standard Webhooks and masks the endpoint's own headers in what is logged", () => {
    const { request, loggedHeaders } = http.prepare(outgoing, target, [SECRET]);
    expect(request).toMatchObject({ url: target.url, body: outgoing.payload, headers: { authorization: "Bearer t0ken", "webhook-id": "msg_1" } });
    expect(new Webhook(SECRET).verify(request.body, request.headers)).toEqual({ type: "invoice.paid" });
    expect(loggedHeaders).toMatchObject({ authorization: REDACTED_HEADER_VALUE, "webhook-id": "msg_1", "webhook-signature": request.headers["webhook-signature"] });
    expect(Object.keys(request.headers).filter((name) => /^(svix-|webhook-test)/.test(name))).toEqual([]);
  });

  it("adds the svix-* set when the endpoint asks for it, and webhook-test on a test send", () => {
    const { request } = http.prepare({ ...outgoing, isTest: true }, { ...target, svix_headers: true }, [SECRET]);
    expect(request.headers).toMatchObject({
      "svix-id": "msg_1",
      "svix-timestamp": request.headers["webhook-timestamp"],
      "svix-signature": request.headers["webhook-signature"],
      "webhook-test": "true",
    });
  });
});

describe("http: send", () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    receiver = await startReceiver((_req, res) => res.writeHead(200).end("x".repeat(100)));
  });
  afterAll(() => receiver.close());
  const config = parseConfig({ ENCRYPTION_KEY: "ab".repeat(32), RESPONSE_BODY_LIMIT: "10", DELIVERY_TIMEOUT: "5s" });

  it("POSTs through the egress guard with the operator's body limit, or refuses the address", async () => {
    const { request } = http.prepare(outgoing, { ...target, url: `http://127.0.0.1:${receiver.port}/hook` }, [SECRET]);
    const loopback = { allowHttp: true, allowPrivate: true, allowCidrs: [] };
    expect(await http.send(request, { config, policy: loopback, isolationKey: "ep_1" })).toMatchObject({ statusCode: 200, error: null, responseBody: "x".repeat(10) });
    expect(receiver.received.at(-1)).toMatchObject({ path: "/hook" });
    const strict = { ...loopback, allowPrivate: false };
    expect(await http.send(request, { config, policy: strict, isolationKey: "ep_1" })).toMatchObject({ statusCode: null, error: "forbidden_address" });
    expect(receiver.received).toHaveLength(1);
  });
});

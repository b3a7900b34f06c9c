import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../../lib/api-keys";
import { systemCtx } from "../../lib/open-ctx";
import { clientFor } from "../helpers/api";
import { startBuiltApp, startProductionWeb } from "../helpers/built-app";
import { createConsumer } from "../helpers/fixtures";
import { waitFor } from "../helpers/receiver";

/**
 * POST /api/v1/messages as production serves it (npm run web: web/server.ts hands the
 * route's own handler the request without Next.js's routing, ADR 0035) against `next start` on the
 * same build and database: the same answers — status, problem+json, headers, request ids — the
 * same access line and the same rate limit; only Next.js's transport extras (gzip, its `vary`) are
 * absent. Next.js serves the route's first request (it loads the module), the web server the rest.
 */
type Answer = { status: number; headers: Record<string, string>; body: any };

async function post(url: string, key: string | null, body: string, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(`${url}/api/v1/messages`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
    body,
  });
  const text = await response.text();
  let parsed: any = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // kept as text
  }
  return { status: response.status, headers: Object.fromEntries(response.headers), body: parsed };
}

// What differs between two answers to the same request, whoever serves it: fresh ids and times,
// and the transport's own headers (Next.js compresses and chunks every answer, and varies it on RSC).
const TRANSPORT = new Set(["date", "content-length", "content-encoding", "transfer-encoding", "vary", "x-request-id", "connection", "keep-alive"]);
function comparable({ status, headers, body }: Answer) {
  const kept = Object.fromEntries(Object.entries(headers).filter(([name]) => !TRANSPORT.has(name)));
  const { id: _id, created_at: _at, request_id: _rid, ...rest } = typeof body === "object" && body ? body : { body };
  return { status, headers: kept, body: rest };
}

let web: Awaited<ReturnType<typeof startProductionWeb>>;
let next: Awaited<ReturnType<typeof startBuiltApp>>;
let key: string;

beforeAll(async () => {
  ({ key } = await createApiKey({ ctx: systemCtx(), input: { name: "lean" } }));
  next = await startBuiltApp({ LOG_LEVEL: "info" });
  // A shutdown delay long enough that the request the last test makes after SIGTERM is surely inside
  // it, however busy the machine (at 3 s, a slow one could arrive after the close).
  web = await startProductionWeb({ LOG_LEVEL: "info", MIGRATE_ON_START: "false", SHUTDOWN_DELAY: "30s" });
  await createConsumer(clientFor(key), { uid: "lean", name: "Lean" });
}, 600_000);

afterAll(async () => {
  await next?.stop();
  await web?.stop();
});

describe("POST /api/v1/messages through the production web server", () => {
  it("is answered by Next.js first, then by the route's own handler directly, with the same answers as next start", async () => {
    const message = JSON.stringify({ consumer: "lean", event_type: "a.b", payload: { n: 1 } });
    // The first request loads the route's module through Next.js, which answers it (with its `vary`).
    const first = await post(web.url, key, message);
    expect(first.status).toBe(202);
    expect(first.headers.vary).toContain("rsc");

    const cases: [string, string | null, string, Record<string, string>][] = [
      ["accepted", key, message, { "x-request-id": "lean-test-1" }],
      ["replayed", key, message, { "idempotency-key": "lean-key" }],
      ["replayed again", key, message, { "idempotency-key": "lean-key" }],
      ["no key", null, message, { "x-request-id": "lean-test-401" }],
      ["unknown key", "sk_unknown", message, {}],
      ["not JSON", key, "{", {}],
      ["invalid", key, JSON.stringify({ consumer: "lean" }), {}],
      ["unknown consumer", key, JSON.stringify({ consumer: "nobody", event_type: "a.b", payload: {} }), {}],
      ["bad Idempotency-Key", key, message, { "idempotency-key": "x".repeat(300) }],
      // Past 64 KiB the web server streams the body to the route instead of reading it whole first.
      ["large, streamed", key, JSON.stringify({ consumer: "lean", event_type: "a.b", payload: { text: "x".repeat(100 * 1024) } }), {}],
      ["over the payload limit, streamed", key, JSON.stringify({ consumer: "lean", event_type: "a.b", payload: { text: "x".repeat(1200 * 1024) } }), {}],
    ];
    for (const [name, credential, body, headers] of cases) {
      const lean = await post(web.url, credential, body, headers);
      const nextAnswer = await post(next.url, credential, body, name === "replayed" || name === "replayed again" ? { "idempotency-key": "lean-key-next" } : headers);
      // Served without Next.js: none of its transport headers.
      expect(lean.headers.vary, name).toBeUndefined();
      expect(lean.headers["content-encoding"], name).toBeUndefined();
      expect(comparable(lean), name).toEqual(comparable(nextAnswer));
      if (headers["x-request-id"]) expect(lean.headers["x-request-id"]).toBe(headers["x-request-id"]);
      if (typeof lean.body === "object" && lean.body?.request_id) expect(lean.body.request_id).toBe(lean.headers["x-request-id"]);
    }
    // The access line, as served() writes it for every route, under the request's id.
    const accessLine = (id: string) =>
      web
        .output()
        .split("\n")
        .flatMap((line) => {
          try {
            return [JSON.parse(line) as Record<string, unknown>];
          } catch {
            return [];
          }
        })
        .find((line) => line.msg === "request" && line.req_id === id);
    await waitFor(() => accessLine("lean-test-401") !== undefined, { what: "the access lines" });
    expect(accessLine("lean-test-1")).toMatchObject({ level: "info", method: "POST", route: "/api/v1/messages", status: 202, actor_type: "api_key" });
    expect(accessLine("lean-test-401")).toMatchObject({ level: "info", method: "POST", route: "/api/v1/messages", status: 401, actor_type: "none" });
  });

  it("keeps the connection after refusing a small body it read whole, and cuts off a client that never sends the body it declared", async () => {
    // The route's module is loaded: the web server answers from here on.
    expect((await post(web.url, key, JSON.stringify({ consumer: "lean", event_type: "a.b", payload: {} }))).status).toBe(202);
    const refused = await post(web.url, null, JSON.stringify({ consumer: "lean", event_type: "a.b", payload: {} }));
    expect(refused.status).toBe(401);
    expect(refused.headers.connection).not.toBe("close");

    // Declares 1,000 bytes, sends 6, and waits: read before anyone is authenticated, so not for long.
    const { port } = new URL(web.url);
    const socket = connect(Number(port), "127.0.0.1");
    let answer = "";
    socket.on("data", (chunk) => (answer += chunk.toString()));
    const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
    socket.write("POST /api/v1/messages HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{\"a\":");
    await closed;
    expect(answer).toBe("");
    expect(web.output()).not.toContain("lean route failed");
  }, 30_000);

  it("keeps serving it for SHUTDOWN_DELAY after SIGTERM while readiness answers 503, then stops", async () => {
    const stopped = web.stop();
    await waitFor(async () => (await fetch(`${web.url}/api/health/ready`).catch(() => null))?.status === 503, { what: "readiness to turn 503" });
    const during = await post(web.url, key, JSON.stringify({ consumer: "lean", event_type: "a.b", payload: { during: true } }));
    expect(during.status).toBe(202);
    expect(during.headers.vary).toBeUndefined();
    await stopped;
    expect(web.output()).toContain("Stopped.");
    // The shutdown delay's 30 s, waited out to see it stop.
  }, 90_000);
});

describe("the API rate limit on the production web server", () => {
  it("is one bucket per key for the route, whichever path serves it", async () => {
    const limited = await startProductionWeb({ MIGRATE_ON_START: "false", API_RATE_LIMIT_PER_SECOND: "1" });
    try {
      const message = JSON.stringify({ consumer: "lean", event_type: "a.b", payload: {} });
      // Through Next.js (the module's first request): it takes the one token.
      expect((await post(limited.url, key, message)).status).toBe(202);
      const answers = await Promise.all(Array.from({ length: 10 }, () => post(limited.url, key, message)));
      const refused = answers.filter((a) => a.status === 429);
      expect(refused.length).toBeGreaterThan(0);
      expect(refused[0]!.headers.vary).toBeUndefined();
      expect(refused[0]!.headers["content-type"]).toBe("application/problem+json");
      expect(Number(refused[0]!.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    } finally {
      await limited.stop();
    }
  });
});

import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256Hex } from "../../lib/crypto/encryption";
import { getSql } from "../../lib/db/client";
import { MAX_WAITERS_PER_KEY, waitingDuplicates } from "../../lib/svix/idempotency";
import { handle } from "../helpers/api";
import { holdTransaction } from "../helpers/held-transaction";
import { serveHandler } from "../helpers/route-server";
import { apiKey } from "./sdks";

/**
 * The Svix API's Idempotency-Key under abuse: a body that never finishes, and hundreds of
 * duplicates of one key. Raw HTTP rather than the SDKs: no SDK sends half a body, and the
 * duplicates' answers are counted as they arrive. The app's handlers are served with each request
 * body's first read noted (`bodyRead`), to tell when a request has got as far as its body.
 */
// The duplicates' wait for the first answer is far off: what these tests hold up, they release
// themselves, however long a loaded machine takes to send 300 requests.
process.env.IDEMPOTENCY_WAIT = "10m";

let server: Awaited<ReturnType<typeof serveHandler>>;
let token = "";
const bodyRead = new Map<string, () => void>();
const readStarted = (id: string) => new Promise<void>((resolve) => bodyRead.set(id, resolve));

beforeAll(async () => {
  server = await serveHandler(async (req) => {
    const id = req.headers.get("x-test-id");
    const signal = id ? bodyRead.get(id) : undefined;
    if (!signal || !req.body) return handle(req);
    const reader = req.body.getReader();
    // Pulled only when the app reads: highWaterMark 0.
    const tapped = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          signal();
          const { done, value } = await reader.read();
          if (done) controller.close();
          else controller.enqueue(value);
        },
        cancel: (reason) => reader.cancel(reason),
      },
      { highWaterMark: 0 },
    );
    return handle(new Request(req, { body: tapped, duplex: "half" } as RequestInit));
  });
  token = await apiKey();
});
afterAll(async () => {
  await server?.close();
});

const headers = (key: string) => ({ authorization: `Bearer ${token}`, "content-type": "application/json", "idempotency-key": key });

function createApp(key: string, uid: string) {
  return fetch(`${server.url}/api/v1/app`, { method: "POST", headers: headers(key), body: JSON.stringify({ name: "Dup", uid }) });
}

const pendingKeys = async () => (await getSql()<{ n: number }[]>`select count(*)::int as n from api_idempotency where state = 'pending'`)[0]!.n;

describe("Svix Idempotency-Key", () => {
  it("is not taken by a request whose body never finishes: a duplicate is answered at once, fresh", async () => {
    const key = "half-body";
    const whole = JSON.stringify({ name: "Half", uid: "half-body" });
    const started = readStarted("half");
    const half = httpRequest(`${server.url}/api/v1/app`, {
      method: "POST",
      headers: { ...headers(key), "content-length": String(whole.length), "x-test-id": "half" },
    });
    half.on("error", () => {});
    half.write(whole.slice(0, 10));
    await started;
    // The app is reading the body: it has not taken the key.
    expect(await pendingKeys()).toBe(0);
    const duplicate = await createApp(key, "half-body");
    expect(duplicate.status).toBe(201);
    expect(duplicate.headers.get("idempotent-replayed")).toBeNull();
    half.destroy();
  });

  it(`lets duplicates wait without the pool, answers health meanwhile, and refuses one past ${MAX_WAITERS_PER_KEY} 409`, async () => {
    const key = "crowd";
    const uid = "crowd-app";
    // The first request is held inside its answer: its application's insert waits on this lock.
    const held = await holdTransaction((tx) => tx`lock table consumers in share row exclusive mode`);
    const first = createApp(key, uid);
    await expect.poll(pendingKeys, { timeout: 20_000 }).toBe(1);

    let answered = 0;
    const track = (response: Promise<Response>) =>
      response.then(async (r) => {
        answered++;
        return { status: r.status, replayed: r.headers.get("idempotent-replayed"), body: (await r.json()) as { id?: string; code?: string } };
      });
    const crowd = Array.from({ length: 300 }, () => track(createApp(key, uid)));
    await expect.poll(waitingDuplicates, { timeout: 60_000 }).toBe(300);

    // Each waiter holds no pooled connection: the health check's query gets one.
    const health = await fetch(`${server.url}/api/health`);
    expect(health.status).toBe(200);
    expect(answered).toBe(0);

    // Up to the cap (300) they wait; the one past it is answered 409 while the first is still pending.
    const more = Array.from({ length: MAX_WAITERS_PER_KEY - 300 + 1 }, () => track(createApp(key, uid)));
    await expect.poll(() => answered, { timeout: 60_000 }).toBe(1);
    expect(waitingDuplicates()).toBe(MAX_WAITERS_PER_KEY);

    await held.commit();
    const firstAnswer = await first;
    expect(firstAnswer.status).toBe(201);
    const { id } = (await firstAnswer.json()) as { id: string };
    const answers = await Promise.all([...crowd, ...more]);
    const refused = answers.filter((a) => a.status === 409);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.body.code).toBe("conflict");
    const replays = answers.filter((a) => a.status === 201);
    expect(replays).toHaveLength(MAX_WAITERS_PER_KEY);
    for (const replay of replays) expect(replay).toMatchObject({ replayed: "true", body: { id } });
    expect(waitingDuplicates()).toBe(0);
    const [made] = await getSql()<{ n: number }[]>`select count(*)::int as n from consumers where uid = ${uid}`;
    expect(made!.n).toBe(1);
  });

  it("wakes a waiting duplicate when another web process answers the first (NOTIFY), and replays that answer", async () => {
    const key = "elsewhere";
    const sql = getSql();
    const [apiKeyRow] = await sql<{ id: string }[]>`select id from api_keys where hash = ${sha256Hex(token)}`;
    const keyHash = sha256Hex(`api_key:${apiKeyRow!.id}\n/api/v1/app\n${key}`);
    // As another web process holds it: pending, its answer on the way.
    await sql`insert into api_idempotency (key_hash, state, expires_at) values (${keyHash}, 'pending', now() + interval '1 hour')`;
    const duplicate = createApp(key, "elsewhere-app");
    await expect.poll(waitingDuplicates, { timeout: 20_000 }).toBe(1);
    // The other process's answer, whole: a replay is checked against the route's schema like any answer.
    const stored = { id: "con_elsewhere", uid: "elsewhere-app", name: "Elsewhere", metadata: {}, throttleRate: null, rateLimit: null, createdAt: "2026-01-01T00:00:00.000Z", updatedAt: "2026-01-01T00:00:00.000Z" };
    const answer = JSON.stringify(stored);
    await sql`update api_idempotency set state = 'done', status = 201, body = ${answer} where key_hash = ${keyHash}`;
    await sql`select pg_notify('webhook_admin_idempotency', ${keyHash})`;
    // Woken by the notice, not by its own deadline (IDEMPOTENCY_WAIT, set far off above), when it would look again by itself.
    let settled = false;
    void duplicate.finally(() => (settled = true));
    await expect.poll(() => settled, { timeout: 60_000 }).toBe(true);
    const replayed = await duplicate;
    expect(replayed.status).toBe(201);
    expect(replayed.headers.get("idempotent-replayed")).toBe("true");
    expect(await replayed.json()).toEqual(stored);
  });
});

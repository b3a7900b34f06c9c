import { beforeAll, describe, expect, it } from "vitest";
import { apiClient, type ApiResponse, type Api } from "../helpers/api";
import { consumerWithEndpoints } from "../helpers/fixtures";
import { runReceiver, waitFor } from "../helpers/receiver";
import { runTestWorker } from "../helpers/worker";
import { getSql } from "../../lib/db/client";

// Short gaps keep failed deliveries coming back while the endpoints change state.
process.env.DELIVERY_SCHEDULE = "0,20ms,20ms,20ms,20ms,20ms,20ms,20ms";
process.env.CIRCUIT_FAILURE_THRESHOLD = "1000";

/**
 * State changes (PATCH `disabled`, disable, enable, DELETE of an endpoint or its consumer) while a
 * running worker writes those endpoints' outcomes: every writer locks queue rows, then deliveries,
 * then endpoints, and a deadlock or serialization failure left over is retried inside the verb.
 * No request answers 5xx.
 */
let api: Api;
const answers: { what: string; status: number; text: string }[] = [];

beforeAll(async () => {
  api = await apiClient();
});
// Fast, and failing one request in three: failures keep each endpoint's failure streak moving,
// so every outcome write locks the endpoint row as well as its queue and delivery rows.
const receiver = runReceiver((_req, res, _body, index) => res.writeHead(index % 3 === 0 ? 500 : 204).end());
runTestWorker();

const record = (what: string) => (res: ApiResponse) => {
  answers.push({ what, status: res.status, text: res.text });
  return res;
};

const attemptCount = async () => Number((await getSql()`select count(*) from attempts`)[0]!.count);

async function ingest(uid: string, n: number) {
  await Promise.all(
    Array.from({ length: n }, (_, i) => api.post("/api/v1/messages", { consumer: uid, event_type: "a.b", payload: { i } }).then(record("ingest"))),
  );
}

/** What the queue holds per endpoint and kind, for a failure's message. */
const queueState = async () =>
  getSql()`
    select e.id, e.state, e.consecutive_failures, (e.circuit_open_until - now())::text as circuit_open_for, q.kind, count(q.*)::int as rows,
           count(*) filter (where q.lease_token is not null and q.next_attempt_at > now())::int as leased,
           count(*) filter (where q.lease_token is not null and q.next_attempt_at <= now())::int as lease_ended,
           count(*) filter (where q.parked)::int as parked,
           min(q.next_attempt_at - now())::text as soonest, max(q.next_attempt_at - now())::text as latest
    from endpoints e left join delivery_queue q on q.endpoint_id = e.id
    group by e.id, e.state, e.consecutive_failures, e.circuit_open_until, q.kind order by e.id, q.kind`;

/**
 * Ingests a backlog and waits until the worker is writing its outcomes. Counted from before the
 * ingest: the worker may deliver nearly all of it while the ingest's requests are still answered.
 */
async function ingestFlowing(uid: string, n: number) {
  const start = await attemptCount();
  await ingest(uid, n);
  let state: unknown;
  await waitFor(
    async () => {
      const flowing = (await attemptCount()) >= start + 20;
      if (!flowing) state = await queueState();
      return flowing;
    },
    { what: "outcomes being written", onTimeout: () => console.error("queue when outcomes stopped:", JSON.stringify(state, null, 1)) },
  );
}

describe("state changes under a running worker", () => {
  it("flipping endpoints' state and deleting them and their consumer while outcomes are written answers no 5xx", async () => {
    const { uid, endpoints } = await consumerWithEndpoints(
      api,
      [0, 1, 2, 3].map((i) => `${receiver.url}/e${i}`),
      { consumer: { uid: "flip", name: "Flip" } },
    );
    const ids = endpoints.map((e) => e.id);
    for (let round = 0; round < 8; round++) {
      await ingestFlowing(uid, 60);
      await Promise.all([
        ingest(uid, 40),
        ...ids.map(async (id) => {
          await api.patch(`/api/v1/endpoints/${id}`, { disabled: true, description: `round ${round}` }).then(record("patch disabled"));
          await api.patch(`/api/v1/endpoints/${id}`, { disabled: false }).then(record("patch enabled"));
          await api.post(`/api/v1/endpoints/${id}/disable`).then(record("disable"));
          await api.post(`/api/v1/endpoints/${id}/enable`).then(record("enable"));
        }),
      ]);
    }
    await ingestFlowing(uid, 80);
    await Promise.all([ingest(uid, 40), api.del(`/api/v1/endpoints/${ids[0]}`).then(record("delete endpoint"))]);
    await ingestFlowing(uid, 60);
    await Promise.all([ingest(uid, 40), api.del(`/api/v1/consumers/${uid}`).then(record("delete consumer"))]);

    const failed = answers.filter((a) => a.status >= 500);
    expect(failed, JSON.stringify(failed.slice(0, 3))).toEqual([]);
    expect(answers.filter((a) => a.what === "delete endpoint").map((a) => a.status)).toEqual([204]);
    // A consumer with an attempt in flight is erased by the worker: 202, and gone once it is done.
    expect([202, 204]).toContain(answers.find((a) => a.what === "delete consumer")!.status);
    // Ingest racing the consumer's deletion may find it gone (404); everything else went through.
    expect(answers.filter((a) => a.status >= 400 && a.what !== "ingest")).toEqual([]);
    const left = async () => (await getSql()`select (select count(*) from endpoints)::int as endpoints, (select count(*) from delivery_queue)::int as queued`)[0];
    await expect.poll(left).toEqual({ endpoints: 0, queued: 0 });
  }, 120_000);
});

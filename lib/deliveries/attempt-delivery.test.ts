import { describe, expect, it } from "vitest";
import { z } from "zod";
import { parseConfig } from "../config";
import { defineDestination, type SendResult } from "../destinations/destination";
import { attemptDelivery, type DueDelivery } from "./attempt-delivery";

/**
 * The attempt knows no kind: a destination written the way docs/project-layout.md's "Adding a
 * destination kind" says — a schema, prepare, send, classify — goes through it unchanged, and the
 * attempt log's fields and the schedule come out of it. This kind keeps its sends in memory.
 */
const sent: { queue: string; body: string; signature: string }[] = [];
let answer: SendResult | Error = { statusCode: null, error: null, errorDetail: null, headers: {}, responseBody: "queued", durationMs: 2 };
const memory = defineDestination<{ queue: string; token: string }, { queue: string; body: string; signature: string }>({
  kind: "memory",
  target: z.object({ queue: z.string(), token: z.string() }),
  describe: (target) => `memory://${target.queue}`,
  prepare: (delivery, target, secrets) => ({
    request: { queue: target.queue, body: delivery.payload, signature: secrets.join(" ") },
    loggedHeaders: { token: "[redacted]", "message-id": delivery.messageId },
  }),
  async send(request) {
    if (answer instanceof Error) throw answer;
    sent.push(request);
    return answer;
  },
  classify: (result) => (result.error === null ? { success: true, error: null, retryAfterMs: null } : { success: false, error: result.error, retryAfterMs: 60 * 60_000 }),
});

const config = parseConfig({ ENCRYPTION_KEY: "ab".repeat(32), DELIVERY_SCHEDULE: "0,5s,5m" });
const policy = { allowHttp: false, allowPrivate: false, allowCidrs: [] };
const target = memory.target.parse({ queue: "orders", token: "t0ken" });

function due(route: DueDelivery["route"]): DueDelivery {
  return {
    id: "dlv_1",
    message_id: "msg_1",
    endpoint_id: "ep_1",
    consumer_id: "con_1",
    attempts: 0,
    scheduled_attempts: 0,
    created_at: new Date(),
    payload: '{"n":1}',
    is_test: false,
    route,
  };
}
const route: DueDelivery["route"] = { destination: memory, target, where: memory.describe(target) };

describe("an attempt at a destination of any kind", () => {
  it("prepares, sends and classifies by the kind, and logs what the kind says", async () => {
    const outcome = await attemptDelivery({ delivery: due(route), secrets: ["whsec_a"], trigger: "scheduled", config, policy });
    expect(sent).toEqual([{ queue: "orders", body: '{"n":1}', signature: "whsec_a" }]);
    expect(outcome).toMatchObject({
      success: true,
      statusCode: null,
      error: null,
      responseBody: "queued",
      durationMs: 2,
      requestHeaders: { token: "[redacted]", "message-id": "msg_1" },
      url: "memory://orders",
      attemptNumber: 1,
      next: { status: "succeeded", attemptAt: null },
    });
  });

  it("keeps the schedule in one place: a failure waits as long as the kind asks, within the schedule", async () => {
    answer = { statusCode: null, error: "queue_full", errorDetail: "the queue is full", headers: {}, responseBody: "", durationMs: 1 };
    const outcome = await attemptDelivery({ delivery: due(route), secrets: ["whsec_a"], trigger: "scheduled", config, policy });
    expect(outcome).toMatchObject({ success: false, error: "queue_full", errorDetail: "the queue is full", next: { status: "pending" } });
    // Asked for an hour; the schedule's next gap is 5 s and its end 5 min 5 s away: twice the gap.
    const wait = outcome.next!.attemptAt!.getTime() - outcome.finishedAt.getTime();
    expect(wait).toBe(10_000);
  });

  it("is total: a send that throws, or a kind this code does not know, is the attempt's internal_error", async () => {
    answer = new Error("boom");
    const thrown = await attemptDelivery({ delivery: due(route), secrets: ["whsec_a"], trigger: "manual", config, policy });
    expect(thrown).toMatchObject({ success: false, error: "internal_error", url: "memory://orders", requestHeaders: { "message-id": "msg_1" }, next: null });
    const unknown = await attemptDelivery({ delivery: due({ where: "sqs", problem: "not known" }), secrets: ["whsec_a"], trigger: "scheduled", config, policy });
    expect(unknown).toMatchObject({ success: false, error: "internal_error", url: "sqs", requestHeaders: {}, next: { status: "pending" } });
  });

  it("sends nothing unsigned: without its secrets the attempt fails as secret_unavailable", async () => {
    answer = { statusCode: null, error: null, errorDetail: null, headers: {}, responseBody: "", durationMs: 1 };
    const before = sent.length;
    const outcome = await attemptDelivery({ delivery: due(route), secrets: null, trigger: "scheduled", config, policy });
    expect(outcome).toMatchObject({ success: false, error: "secret_unavailable" });
    expect(sent).toHaveLength(before);
  });
});

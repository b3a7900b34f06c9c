import { inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Ctx } from "../../lib/context";
import { createSql, getDb, getSql, type Sql, type SqlOrTx } from "../../lib/db/client";
import { deliveries, messages } from "../../lib/db/schema";
import {
  deliveriesOfMessage,
  deliveriesOfMessageColumn,
  deliveriesOfMessageColumnSql,
  deliveriesOfMessageSql,
  deliveriesOfMessages,
  deliveriesOfMessagesSql,
} from "../../lib/db/deliveries-of-messages";
import { sendTestMessage } from "../../lib/messages/send-test-message";
import { deliveryIdFor, newId } from "../../lib/ids";
import { getMessage, listMessages, resendMessage } from "../../lib/messages";
import { ctxOver, systemCtx } from "../../lib/open-ctx";
import { getConfig } from "../../lib/config";
import { advanceRecoveries, feedPolicy } from "../../lib/recoveries/advance-recoveries";
import { createRecovery } from "../../lib/recoveries/create-recovery";
import { eraseConsumer } from "../../lib/retention/erase-consumer";
import { expireMessages } from "../../lib/retention/expire-messages";
import { expungePayload } from "../../lib/retention/expunge-payload";
import { DAY_MS, PARTITIONED, dayPartitions, makePartitions, startOfDay } from "../../lib/retention/partitions";
import { startErasure } from "../../lib/retention/start-erasure";
import { ListAttemptedDestinationsQuery, ListAttemptedMessagesQuery, listAttemptedDestinations, listAttemptedMessages } from "../../lib/svix/messages";
import { apiClient } from "../helpers/api";
import { consumerWithEndpoints } from "../helpers/fixtures";
import { runReceiver, waitFor } from "../helpers/receiver";

/**
 * Every read of deliveries by message is bounded by the message's day (lib/db/deliveries-of-messages.ts,
 * ADR 0034): deliveries are partitioned by id, a day each, and a read by message_id alone reads every
 * day's (message_id, endpoint_id) index. Messages on three past days, each with its deliveries in its
 * day (and one made later, as before migration 0019), and an empty day before them all; the plans
 * (EXPLAIN ANALYZE, FORMAT JSON) show which day partitions a statement reads by message_id. The
 * planner is held to index scans and nested loops, as it plans these reads on tables of real size
 * (on a few rows it would scan every partition whole, bound or not).
 */

const receiver = runReceiver((_req, res) => res.writeHead(200).end("ok"));
const today = startOfDay(Date.now());
/** A day before every message: no read by message may touch it. */
const empty = today - 4 * DAY_MS;
/** The messages' days, oldest first. */
const days = [today - 3 * DAY_MS, today - 2 * DAY_MS, today - DAY_MS];
const dayTag = (day: number) => new Date(day).toISOString().slice(0, 10).replace(/-/g, "");

let uid: string;
let consumerId: string;
let endpointId: string;
let otherEndpointId: string;
/** One message a day (its time: an hour into the day); the first has a second delivery made on the last day, as before 0019. */
const sent: { id: string; day: number; deliveries: string[] }[] = [];

beforeAll(async () => {
  const api = await apiClient();
  const sql = getSql();
  // Day partitions from the empty day on, made by the sweep: a fresh database's default partitions
  // hold nothing of those days (this file's audit rows are cleared first).
  await sql`delete from audit_events`;
  for (const { table } of PARTITIONED) {
    for (const p of await dayPartitions(sql, table)) await sql.unsafe(`alter table ${table} detach partition ${p.name}; drop table ${p.name}`);
  }
  await makePartitions({ ctx: systemCtx(), now: empty });
  await makePartitions({ ctx: systemCtx() });
  const made = await consumerWithEndpoints(api, [receiver.url, `${receiver.url}/other`], { prefix: "bounds" });
  uid = made.uid;
  consumerId = made.consumerId;
  [endpointId, otherEndpointId] = made.endpoints.map((e) => e.id) as [string, string];
  for (const [i, day] of days.entries()) {
    const at = day + 3_600_000;
    const id = newId("message", at);
    await sql`insert into messages (id, consumer_id, event_type, payload, created_at) values (${id}, ${consumerId}, 'invoice.paid', '{"n":1}', ${new Date(at)})`;
    const dlv = deliveryIdFor(id);
    await sql`
      insert into deliveries (id, message_id, endpoint_id, consumer_id, status, attempts, created_at)
      values (${dlv}, ${id}, ${endpointId}, ${consumerId}, ${i === 1 ? "succeeded" : "failed"}, 1, ${new Date(at)})`;
    sent.push({ id, day, deliveries: [dlv] });
  }
  // Made before migration 0019 gave deliveries their message's time: an id of its own, later day.
  const late = newId("delivery", days[2]! + 7_200_000);
  await sql`
    insert into deliveries (id, message_id, endpoint_id, consumer_id, status, attempts, created_at)
    values (${late}, ${sent[0]!.id}, ${otherEndpointId}, ${consumerId}, 'succeeded', 1, ${new Date(days[2]! + 7_200_000)})`;
  sent[0]!.deliveries.push(late);
  await sql`analyze deliveries, messages`;
});

type PlanNode = Record<string, unknown> & { Plans?: PlanNode[] };

/**
 * The day partitions of deliveries a plan reads (at least once, when analyzed) — by message_id
 * only, or by anything; the default partition has no day.
 */
function daysRead(node: PlanNode, byMessageOnly: boolean, out = new Set<number>()): Set<number> {
  const name = String(node["Relation Name"] ?? node["Index Name"] ?? "");
  const day = /^deliveries_p(\d{4})(\d{2})(\d{2})/.exec(name);
  const conditions = [node["Index Cond"], node["Filter"], node["Recheck Cond"]].join(" ");
  if (day && (!byMessageOnly || conditions.includes("message_id")) && ((node["Actual Loops"] as number | undefined) ?? 1) > 0) {
    out.add(Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3])));
  }
  for (const child of node.Plans ?? []) daysRead(child, byMessageOnly, out);
  return out;
}

const ROLLBACK = new Error("rollback");

type Reads = { byMessage: Set<number>; all: Set<number> };

/**
 * The days of deliveries a statement reads by message_id, and by anything, run and rolled back
 * (after `setup`, in the same transaction) as the planner plans it at scale.
 */
async function readsOf(text: string, parameters: unknown[] = [], setup?: (tx: SqlOrTx) => Promise<unknown>): Promise<Reads> {
  let plan: PlanNode | undefined;
  await getSql()
    .begin(async (tx) => {
      await setup?.(tx);
      await tx`set local enable_seqscan = off`;
      await tx`set local enable_hashjoin = off`;
      await tx`set local enable_mergejoin = off`;
      await tx`set local enable_material = off`;
      const [row] = await tx.unsafe(`explain (analyze, format json) ${text}`, parameters as never[]);
      const json = (row as Record<string, unknown>)["QUERY PLAN"];
      plan = (typeof json === "string" ? JSON.parse(json) : json)[0].Plan as PlanNode;
      throw ROLLBACK;
    })
    .catch((error: unknown) => {
      if (error !== ROLLBACK) throw error;
    });
  return { byMessage: daysRead(plan!, true), all: daysRead(plan!, false) };
}

/** A postgres.js fragment's statement as text and parameters, as the server receives it. */
async function statementOf(build: (sql: SqlOrTx) => PromiseLike<unknown>): Promise<{ text: string; parameters: unknown[] }> {
  const statements = await traced(async (ctx) => {
    await build(ctx.sql);
  });
  // The last: a new pool's first statement reads the server's array types.
  return statements.at(-1)!;
}

const oldestDay = (read: Set<number>) => Math.min(...read);
const tagged = (read: Set<number>) => [...read].sort().map(dayTag);

describe("the deliveries of a message", () => {
  it("would read every day's index without the bound: the check sees it", async () => {
    const { byMessage: read } = await readsOf(`select id from deliveries where message_id = $1`, [sent[1]!.id]);
    expect(tagged(read)).toContain(dayTag(empty));
  });

  it("one message (postgres.js and drizzle): the days before its own are pruned, and its deliveries are all found", async () => {
    for (const message of sent) {
      const raw = await statementOf((sql) => sql`select id from deliveries where ${deliveriesOfMessageSql(sql, message.id)}`);
      const orm = getDb().select({ id: deliveries.id }).from(deliveries).where(deliveriesOfMessage(message.id)).toSQL();
      for (const { text, parameters } of [raw, { text: orm.sql, parameters: orm.params }]) {
        const { byMessage: read } = await readsOf(text, parameters);
        expect(oldestDay(read), `${message.id}: ${tagged(read).join(", ")}`).toBe(message.day);
        const rows = await getSql().unsafe(text, parameters as never[]);
        expect(rows.map((r) => r.id).sort(), text).toEqual([...message.deliveries].sort());
      }
    }
  });

  it("a list of messages (postgres.js and drizzle): bounded by the oldest one's day", async () => {
    const ids = [sent[2]!.id, sent[1]!.id];
    const raw = await statementOf((sql) => sql`select id from deliveries where ${deliveriesOfMessagesSql(sql, ids)}`);
    const orm = getDb().select({ id: deliveries.id }).from(deliveries).where(deliveriesOfMessages(ids)).toSQL();
    for (const { text, parameters } of [raw, { text: orm.sql, parameters: orm.params }]) {
      expect(oldestDay((await readsOf(text, parameters)).byMessage)).toBe(sent[1]!.day);
      const rows = await getSql().unsafe(text, parameters as never[]);
      expect(rows.map((r) => r.id).sort()).toEqual([...sent[1]!.deliveries, ...sent[2]!.deliveries].sort());
    }
    expect(await getSql()`select id from deliveries where ${deliveriesOfMessagesSql(getSql(), [])}`).toEqual([]);
  });

  it("joined to a message row (postgres.js and drizzle): each message's earlier days pruned as it is read", async () => {
    const ids = [sent[1]!.id, sent[2]!.id];
    const raw = await statementOf(
      (sql) => sql`select d.id from messages m join deliveries d on ${deliveriesOfMessageColumnSql(sql, "d", "m.id")} where m.id = any(${ids}::text[])`,
    );
    const orm = getDb().select({ id: deliveries.id }).from(messages).innerJoin(deliveries, deliveriesOfMessageColumn(messages.id)).where(inArray(messages.id, ids)).toSQL();
    for (const { text, parameters } of [raw, { text: orm.sql, parameters: orm.params }]) {
      expect(oldestDay((await readsOf(text, parameters)).byMessage), text).toBe(sent[1]!.day);
      const rows = await getSql().unsafe(text, parameters as never[]);
      expect(rows.map((r) => r.id).sort()).toEqual([...sent[1]!.deliveries, ...sent[2]!.deliveries].sort());
    }
    // The first message's delivery made on a later day is found through the join too.
    const [first] = await getSql()`
      select array_agg(d.id order by d.id) as ids from messages m join deliveries d on ${deliveriesOfMessageColumnSql(getSql(), "d", "m.id")}
      where m.id = ${sent[0]!.id}`;
    expect(first!.ids).toEqual([...sent[0]!.deliveries].sort());
  });
});

let pool: Sql | undefined;
afterAll(async () => {
  await pool?.end();
});

/** Runs `work` with a ctx on a pool of its own and returns every statement it sent, with its parameters. */
async function traced(work: (ctx: Ctx) => Promise<unknown>): Promise<{ text: string; parameters: unknown[] }[]> {
  pool ??= createSql(process.env.DATABASE_URL!, { max: 2, name: "bounds-traced" });
  const seen: { text: string; parameters: unknown[] }[] = [];
  pool.options.debug = (_connection: number, text: string, parameters: unknown[]) => {
    seen.push({ text, parameters: [...parameters] });
  };
  try {
    await work(ctxOver(pool));
  } finally {
    pool.options.debug = false;
  }
  return seen;
}

/**
 * The verb's statements that name deliveries and message_id read no day of deliveries before the
 * oldest message's, and at least one reads a message's day by message_id. With `endpointReads`, the
 * verb also reads an endpoint's deliveries in every day (a recovery's attempted deliveries, the Svix
 * API's attempted messages, which the planner may start from either side): only the reads by
 * message_id are judged, and none need be made.
 */
async function expectBounded(
  what: string,
  work: (ctx: Ctx) => Promise<unknown>,
  { endpointReads = false, setup }: { endpointReads?: boolean; setup?: (tx: SqlOrTx) => Promise<unknown> } = {},
) {
  const statements = (await traced(work)).filter((s) => /\bdeliveries\b/.test(s.text) && /message_id/.test(s.text));
  const read = new Set<number>();
  for (const s of statements) {
    const reads = await readsOf(s.text, s.parameters, setup);
    const judged = endpointReads ? reads.byMessage : reads.all;
    expect(oldestDay(judged) >= sent[0]!.day, `${what}: ${s.text} reads ${tagged(judged).join(", ")}`).toBe(true);
    for (const day of reads.byMessage) read.add(day);
  }
  if (!endpointReads) expect([...read].some((day) => day >= sent[0]!.day), `${what} read no delivery by message`).toBe(true);
}

describe("every read of deliveries by message", () => {
  it("a message and the message log (by endpoint, by status)", async () => {
    await expectBounded("GET /messages/{id}", (ctx) => getMessage(ctx, sent[0]!.id));
    await expectBounded("the message log", (ctx) => listMessages(ctx, { limit: 50, consumer: uid }));
    await expectBounded("the log of an endpoint", (ctx) => listMessages(ctx, { limit: 50, consumer: uid, endpoint_id: endpointId }));
    await expectBounded("the log by status", (ctx) => listMessages(ctx, { limit: 50, consumer: uid, status: "succeeded" }));
  });

  it("the Svix API's attempted destinations and attempted messages", async () => {
    await expectBounded("listAttemptedDestinations", (ctx) => listAttemptedDestinations(ctx, uid, sent[1]!.id, ListAttemptedDestinationsQuery.parse({})));
    await expectBounded("listAttemptedMessages", (ctx) => listAttemptedMessages(ctx, uid, endpointId, ListAttemptedMessagesQuery.parse({})), { endpointReads: true });
  });

  it("a recovery's scope (dry run and frozen) and its feeder", async () => {
    const input = { since: new Date(empty), statuses: ["failed" as const], include_never_attempted: true };
    await expectBounded("a recovery's dry run", (ctx) => createRecovery({ ctx, target: { consumer: uid }, input: { ...input, dry_run: true } }), { endpointReads: true });
    await expectBounded("a recovery", (ctx) => createRecovery({ ctx, target: { consumer: uid }, input }), { endpointReads: true });
    // Its first tick starts the canary with an empty token bucket; the ticks after it queue items.
    await expectBounded("the feeder", (ctx) =>
      waitFor(async () => (await advanceRecoveries(ctx.sql as Sql, { ...feedPolicy(getConfig()), rampEveryMs: 1000 })).queued > 0, { what: "items queued" }),
    );
    // Queued items whose queue row is gone (as when the claim drops one) are settled from their
    // deliveries; each statement is explained in that state again (the tick settled them).
    const vanish = async (tx: SqlOrTx) => {
      await tx`update recovery_items set outcome = 'queued' where outcome = 'pending'`;
      await tx`delete from delivery_queue where recovery_id is not null`;
    };
    await vanish(getSql());
    await expectBounded("the feeder settling vanished items", (ctx) => advanceRecoveries(ctx.sql as Sql, { ...feedPolicy(getConfig()), rampEveryMs: 1000 }), { setup: vanish });
  });

  it("a resend and a test send", async () => {
    await expectBounded("a resend", (ctx) => resendMessage({ ctx, messageId: sent[1]!.id, endpointId: otherEndpointId }));
    // A test send reads the endpoint's deliveries of the last minute, not a message's: checked for its answer only.
    expect((await sendTestMessage({ ctx: systemCtx(), id: endpointId, input: {} })).message_id).toMatch(/^msg_/);
  });

  it("expunge, retention and erasure", async () => {
    await expectBounded("a payload expunge", (ctx) => expungePayload({ ctx, messageId: sent[1]!.id }));
    await expectBounded("retention", (ctx) => expireMessages({ ctx: { ...ctx, config: { ...ctx.config, RETENTION_PERIOD: DAY_MS / 2 } }, deadline: Date.now() + 60_000 }));
    await expectBounded("an erasure", async (ctx) => {
      const { erasure } = await startErasure({ ctx, ref: uid });
      await eraseConsumer(ctx, { erasureId: erasure.id });
    });
  });
});

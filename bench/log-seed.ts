import type { Sql } from "../lib/db/client";
import { withStatsRollup } from "../lib/stats/append-rollup";
import { compactStats } from "../lib/stats/compact-stats";

/**
 * Part g's data, written by SQL (generate_series): what a month of traffic leaves behind. Every
 * value comes from a hash of the row's number, so one set of options always makes the same data.
 *
 * - consumers, each with `endpoints / consumers` endpoints; message volume per consumer is skewed
 *   (consumer k gets a share ∝ the density of u², so the largest has about 3 % of all messages and
 *   most have a few hundred), as real tenants are;
 * - messages spread evenly over `days` up to the seed's time, six event types (one rare), payloads
 *   of about 400 bytes with keys to search: `customer` (50 per consumer), `status`, `currency`,
 *   `region`, and `order.id` (unique: a needle);
 * - deliveries: each message to 1…P of its consumer's P endpoints; about 5 % fail (all 8 scheduled
 *   attempts), 0.5 % are canceled, the rest succeed after a geometric number of attempts chosen so
 *   that the attempts total `attempts`; attempts follow the product's retry schedule, and a
 *   delivery whose next attempt would fall after the seed's time is still pending (with its queue
 *   row), so deliveries, attempts and the queue agree;
 * - the stats rollup written the way the product writes it: each chunk of attempts is inserted
 *   through the outcome writer's own `withStatsRollup`, then folded by `compactStats`;
 * - alerts (endpoint.failing and friends) over the month.
 *
 * Secondary indexes of the big tables are dropped for the load and rebuilt after it (as a restore
 * would), then everything is analyzed; tables stay logged.
 */
export type LogSeedOptions = { messages: number; attempts: number; consumers: number; endpoints: number; days: number };

/** The product's default DELIVERY_SCHEDULE (0, 5s, 5m, 30m, 2h, 5h, 10h, 10h), as offsets from the message. */
const SCHEDULE_OFFSETS_S = [0, 5, 305, 2105, 9305, 27305, 63305, 99305];
const MAX_ATTEMPTS = SCHEDULE_OFFSETS_S.length;
const FAILED_SHARE = 0.05;
const CANCELED_SHARE = 0.005;
export const EVENT_TYPES = ["invoice.paid", "invoice.created", "customer.updated", "subscription.renewed", "order.shipped", "payment.disputed"];
const BIG_TABLES = ["messages", "deliveries", "failed_deliveries", "attempts", "delivery_queue", "alerts"];

const hex = (n: number, width: number) => Math.floor(n).toString(16).padStart(width, "0");
/** Ids in the product's shape (`prefix_` + 26 lowercase base32 characters, time first): hex digits are base32 digits. */
export const seedId = (prefix: string, n: number) => `${prefix}_${hex(n, 26)}`;

export async function seedLogData(sql: Sql, o: LogSeedOptions, log: (line: string) => void): Promise<{ endMs: number }> {
  const perConsumer = Math.max(1, Math.round(o.endpoints / o.consumers));
  const endMs = Math.floor(Date.now() / 60_000) * 60_000;
  const spanMs = o.days * 86_400_000;
  const startMs = endMs - spanMs;
  // Mean deliveries per message is (P + 1) / 2; the attempts of succeeding deliveries make up the rest.
  const deliveriesExpected = (o.messages * (perConsumer + 1)) / 2;
  const okShare = 1 - FAILED_SHARE - CANCELED_SHARE;
  const meanOk = Math.max(1, (o.attempts / deliveriesExpected - FAILED_SHARE * MAX_ATTEMPTS - CANCELED_SHARE * 2) / okShare);
  // Succeeding deliveries take 1 + a geometric number of retries with mean meanOk - 1: floor(Exp(λ)).
  const lambda = meanOk > 1 ? Math.log(1 + 1 / (meanOk - 1)) : 1e9;
  const step = async (label: string, run: () => Promise<unknown>) => {
    const t = performance.now();
    await run();
    log(`  ${label}: ${((performance.now() - t) / 1000).toFixed(0)} s`);
  };

  await sql.unsafe(`
    create schema if not exists bench_seed;
    -- A uniform number in [0, 1) from (row, salt); inlined by the planner.
    create or replace function bench_seed.u(i bigint, salt int) returns float8 language sql immutable parallel safe
      as $$ select (hashint8extended(i, salt) & 4294967295)::float8 / 4294967296.0 $$;
    create or replace function bench_seed.hx(n bigint, width int) returns text language sql immutable parallel safe
      as $$ select lpad(to_hex(n), width, '0') $$;
    create or replace function bench_seed.offset_s(k int) returns int language sql immutable parallel safe
      as $$ select (array[${SCHEDULE_OFFSETS_S.join(",")}])[k] $$;`);

  // Secondary indexes off for the load (their definitions are kept and replayed after it).
  const indexes = await sql<{ name: string; def: string }[]>`
    select i.indexname as name, i.indexdef as def from pg_indexes i
    where i.schemaname = 'public' and i.tablename = any(${BIG_TABLES})
      and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`;
  for (const { name } of indexes) await sql.unsafe(`drop index ${name}`);
  // Foreign keys hold by construction; their per-row checks would double the load's time.
  await sql`set session_replication_role = replica`;

  await step(`${o.consumers.toLocaleString("en-US")} consumers, ${(o.consumers * perConsumer).toLocaleString("en-US")} endpoints, event types`, async () => {
    await sql`
      insert into consumers (id, uid, name, created_at, updated_at)
      select 'con_' || bench_seed.hx(c, 26), 'log-' || c, 'Consumer ' || c, to_timestamp(${startMs / 1000}) - interval '30 days', to_timestamp(${startMs / 1000})
      from generate_series(0, ${o.consumers - 1}) c`;
    // Endpoint e belongs to consumer e % C; a few are failing, open-circuited or auto-disabled.
    await sql`
      insert into endpoints (id, consumer_id, url, state, disabled_reason, disabled_at, failing_since, consecutive_failures, circuit_open_until, created_at, updated_at)
      select 'ep_' || bench_seed.hx(e, 26), 'con_' || bench_seed.hx(e % ${o.consumers}, 26), 'https://hooks.example.com/' || e,
             case when e % 211 = 0 then 'auto_disabled' when e % 101 = 0 then 'disabled' else 'active' end,
             case when e % 211 = 0 then 'consecutive_failures' end,
             case when e % 211 = 0 or e % 101 = 0 then to_timestamp(${endMs / 1000}) - interval '3 days' end,
             case when e % 53 = 0 then to_timestamp(${endMs / 1000}) - interval '2 hours' end,
             case when e % 53 = 0 then 12 else 0 end,
             case when e % 159 = 0 then to_timestamp(${endMs / 1000}) + interval '5 minutes' end,
             to_timestamp(${startMs / 1000}) - interval '20 days', to_timestamp(${startMs / 1000})
      from generate_series(0, ${o.consumers * perConsumer - 1}) e`;
    await sql`
      insert into event_types (id, name, description)
      select 'evtype_' || bench_seed.hx(n, 26), name, 'bench' from unnest(${EVENT_TYPES}::text[]) with ordinality as t(name, n)
      on conflict do nothing`;
  });

  // Message i: created at startMs + i·span/M; its consumer floor(C·u²); event types skewed, the last rare.
  const messageRows = `
    select i, ms, c, 'msg_' || bench_seed.hx(ms, 11) || bench_seed.hx(i, 15) as id
    from (select i, (${startMs}::bigint + (i * ${spanMs}::bigint) / ${o.messages}) as ms,
                 floor(${o.consumers} * power(bench_seed.u(i, 1), 2))::int as c
          from generate_series(0, ${o.messages - 1}) i) s`;
  await step(`${o.messages.toLocaleString("en-US")} messages`, () =>
    sql.unsafe(`
      insert into messages (id, consumer_id, event_type, event_id, payload, created_at)
      select m.id, 'con_' || bench_seed.hx(m.c, 26),
             (array['${EVENT_TYPES.join("','")}'])[1 + least(5, floor(power(bench_seed.u(m.i, 2), 1.6) * 5.02))::int],
             'evt_' || m.i,
             format('{"id":"evt_%s","customer":"cus_%s_%s","amount":%s,"currency":"%s","status":"%s","region":"%s","order":{"id":"ord_%s","lines":%s},"note":"%s"}',
                    m.i, m.c, floor(bench_seed.u(m.i, 3) * 50)::int, floor(bench_seed.u(m.i, 4) * 100000)::int,
                    (array['usd','eur','jpy','gbp'])[1 + floor(bench_seed.u(m.i, 5) * 4)::int],
                    (array['paid','open','void','overdue'])[1 + floor(bench_seed.u(m.i, 6) * 4)::int],
                    (array['eu-west','eu-central','us-east','us-west','ap-northeast','ap-south','sa-east','af-south'])[1 + floor(bench_seed.u(m.i, 7) * 8)::int],
                    m.i, 1 + floor(bench_seed.u(m.i, 8) * 9)::int, repeat(md5(m.i::text), 6)),
             to_timestamp(m.ms / 1000.0)
      from (${messageRows}) m`),
  );

  // Delivery (i, t): message i to endpoint t of its consumer (endpoint c + C·t). Its fate r and
  // planned attempts n; it has made the attempts whose scheduled time is not after the seed's time.
  const deliveryRows = `
    select d.*, least(d.planned, width_bucket((${endMs} - d.ms) / 1000.0, array[${SCHEDULE_OFFSETS_S.join(",")}]::numeric[])) as made
    from (
      select m.i, m.ms, m.c, m.id as message_id, t, 'dlv_' || bench_seed.hx(m.ms, 11) || bench_seed.hx(m.i * 8 + t, 15) as id,
             'ep_' || bench_seed.hx(m.c + ${o.consumers} * t, 26) as endpoint_id, 'con_' || bench_seed.hx(m.c, 26) as consumer_id,
             case when r < ${FAILED_SHARE} then 'failed' when r < ${FAILED_SHARE + CANCELED_SHARE} then 'canceled' else 'succeeded' end as fate,
             case when r < ${FAILED_SHARE} then ${MAX_ATTEMPTS}
                  when r < ${FAILED_SHARE + CANCELED_SHARE} then 2
                  else least(${MAX_ATTEMPTS}, 1 + floor(-ln(1 - bench_seed.u(m.i * 8 + t, 10)) / ${lambda}))::int end as planned
      from (${messageRows}) m,
           generate_series(0, floor(bench_seed.u(m.i, 9) * ${perConsumer})::int) t,
           lateral (select bench_seed.u(m.i * 8 + t, 11) as r) f
    ) d`;
  await step("deliveries", () =>
    sql.unsafe(`
      insert into deliveries (id, message_id, endpoint_id, consumer_id, status, attempts, scheduled_attempts, next_attempt_at,
                              last_status_code, last_error, last_attempt_at, created_at, updated_at)
      select id, message_id, endpoint_id, consumer_id, status, made, made,
             case when status = 'pending' then to_timestamp((ms + bench_seed.offset_s(made + 1)::bigint * 1000) / 1000.0) end,
             case when status = 'succeeded' then 200 when last_failed then 503 end,
             case when last_failed then 'http_error' end,
             to_timestamp((ms + bench_seed.offset_s(made)::bigint * 1000 + 180) / 1000.0),
             to_timestamp(ms / 1000.0), to_timestamp((ms + bench_seed.offset_s(made)::bigint * 1000 + 180) / 1000.0)
      from (select *, case when made < planned then 'pending' else fate end as status, (made < planned or fate <> 'succeeded') as last_failed
            from (${deliveryRows}) d) d`),
  );
  // Replica mode holds the triggers too: what deliveries_failed_insert keeps, written as migration 0011's backfill does.
  await step("failed deliveries (the status=failed list)", () =>
    sql`
      insert into failed_deliveries (delivery_id, message_id, endpoint_id, consumer_id, message_created_at)
      select d.id, d.message_id, d.endpoint_id, d.consumer_id, m.created_at from deliveries d join messages m on m.id = d.message_id
      where d.status = 'failed'`,
  );
  await step("delivery queue (pending deliveries)", () =>
    sql`
      insert into delivery_queue (delivery_id, kind, endpoint_id, consumer_id, next_attempt_at)
      select id, 0, endpoint_id, consumer_id, next_attempt_at from deliveries where status = 'pending'`,
  );

  // Attempts, a day of deliveries at a time, through the outcome writer's rollup append; each
  // chunk folded by the compaction as a worker would.
  const dayMs = 86_400_000;
  const t0 = performance.now();
  for (let from = startMs; from < endMs; from += dayMs) {
    const lo = `dlv_${hex(from, 11)}`;
    const hi = `dlv_${hex(Math.min(endMs, from + dayMs), 11)}`;
    await sql.begin((tx) =>
      withStatsRollup(
        tx,
        tx`
          insert into attempts (id, delivery_id, message_id, endpoint_id, consumer_id, attempt_number, trigger, success, status_code, error,
                                error_detail, response_body, duration_ms, request_headers, created_at)
          select 'att_' || substr(a.dlv, 5, 11) || substr(a.dlv, 17) || a.k, a.dlv, a.message_id, a.endpoint_id, a.consumer_id, a.k, 'scheduled',
                 a.ok, case when a.ok then 200 when a.timeout then null else 503 end,
                 case when a.ok then null when a.timeout then 'timeout' else 'http_error' end,
                 case when a.timeout then 'no response within 15000 ms' end,
                 case when a.ok then '{"received":true}' when a.timeout then null else '<html><body><h1>503 Service Unavailable</h1></body></html>' end,
                 a.duration,
                 jsonb_build_object('content-type', 'application/json', 'user-agent', 'WebhookAdmin/1.0', 'webhook-id', a.message_id,
                                    'webhook-timestamp', (a.at_ms / 1000)::text, 'webhook-signature', 'v1,' || md5(a.dlv || a.k) || md5(a.k || a.dlv)),
                 to_timestamp(a.at_ms / 1000.0)
          from (
            select d.id as dlv, d.message_id, d.endpoint_id, d.consumer_id, k,
                   (k = d.attempts and d.status = 'succeeded') as ok,
                   (k < d.attempts or d.status <> 'succeeded') and bench_seed.u(hashtext(d.id)::bigint + k, 12) < 0.2 as timeout,
                   (extract(epoch from d.created_at) * 1000)::bigint + bench_seed.offset_s(k)::bigint * 1000 as at_ms,
                   case when (k < d.attempts or d.status <> 'succeeded') and bench_seed.u(hashtext(d.id)::bigint + k, 12) < 0.2 then 15000
                        else 15 + floor(exp(bench_seed.u(hashtext(d.id)::bigint + k, 13) * 6.5))::int end as duration
            from deliveries d, generate_series(1, d.attempts) k
            where d.id >= ${lo} and d.id < ${hi}
          ) a`,
      ),
    );
    await compactStats({ ctx: { sql } });
    const done = (from + dayMs - startMs) / spanMs;
    if (Math.round(done * 30) % 5 === 0 || done >= 1)
      log(`  attempts and rollup: ${Math.round(Math.min(1, done) * 100)} % (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
  }

  await step("alerts", () =>
    sql`
      insert into alerts (id, kind, endpoint_id, consumer_id, recipient, status, payload, attempts, message, created_at, updated_at)
      select 'alr_' || bench_seed.hx(at_ms, 11) || bench_seed.hx(n, 15), kind, 'ep_' || bench_seed.hx(e, 26), 'con_' || bench_seed.hx(e % ${o.consumers}, 26),
             'ops@example.com', case when n % 17 = 0 then 'suppressed' else 'sent' end, jsonb_build_object('endpoint_id', 'ep_' || bench_seed.hx(e, 26)), 1,
             'Endpoint failing', to_timestamp(at_ms / 1000.0), to_timestamp(at_ms / 1000.0)
      from (select n, ${startMs}::bigint + n * (${spanMs}::bigint / 20000) as at_ms, (n * 7919) % ${o.consumers * perConsumer} as e,
                   (array['endpoint.failing','endpoint.recovered','message.attempt.exhausted','endpoint.disabled'])[1 + n % 4] as kind
            from generate_series(0, 19999) n) a`,
  );
  await sql`set session_replication_role = origin`;

  await step(`indexes (${indexes.length}, rebuilt)`, async () => {
    await sql`set maintenance_work_mem = '1GB'`;
    // A partitioned table's index is defined ON ONLY the parent: replayed so, it would build on no
    // partition (ADR 0034). Without ONLY it builds on every partition and attaches them.
    for (const { def } of indexes) await sql.unsafe(def.replace(" ON ONLY ", " ON "));
  });
  await step("vacuum analyze", () => sql`vacuum analyze`);
  await sql`drop schema bench_seed cascade`;
  return { endMs };
}

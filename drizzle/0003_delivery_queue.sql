CREATE TABLE "delivery_queue" (
	"delivery_id" text PRIMARY KEY NOT NULL,
	"endpoint_id" text NOT NULL,
	"next_attempt_at" timestamp (3) with time zone NOT NULL,
	"lease_token" text,
	"parked" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
-- The queue moves to its own table: every pending delivery, with its lease and parking state.
-- Writers of deliveries still running the old code wait until this migration commits, so none
-- is missed between the copy and the drop of the old columns.
LOCK TABLE "deliveries" IN EXCLUSIVE MODE;--> statement-breakpoint
INSERT INTO "delivery_queue" ("delivery_id", "endpoint_id", "next_attempt_at", "lease_token", "parked")
SELECT "id", "endpoint_id", coalesce("next_attempt_at", now()), "lease_token", "parked" FROM "deliveries" WHERE "status" = 'pending';--> statement-breakpoint
-- Room on each page for the updated versions of its rows, so the worker's updates stay on the page:
-- deliveries' are then HOT (no index writes), the queue's at least local.
ALTER TABLE "deliveries" SET (fillfactor = 80);--> statement-breakpoint
ALTER TABLE "delivery_queue" SET (fillfactor = 70, autovacuum_vacuum_scale_factor = 0.02);--> statement-breakpoint
DROP INDEX "deliveries_due_idx";--> statement-breakpoint
DROP INDEX "deliveries_leased_idx";--> statement-breakpoint
DROP INDEX "deliveries_parked_idx";--> statement-breakpoint
ALTER TABLE "delivery_queue" ADD CONSTRAINT "delivery_queue_delivery_id_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "delivery_queue_due_idx" ON "delivery_queue" USING btree ("next_attempt_at");--> statement-breakpoint
CREATE INDEX "delivery_queue_leased_idx" ON "delivery_queue" USING btree ("endpoint_id","next_attempt_at") WHERE "delivery_queue"."lease_token" is not null;--> statement-breakpoint
CREATE INDEX "delivery_queue_parked_idx" ON "delivery_queue" USING btree ("endpoint_id","next_attempt_at") WHERE "delivery_queue"."parked";--> statement-breakpoint
ALTER TABLE "deliveries" DROP COLUMN "lease_token";--> statement-breakpoint
ALTER TABLE "deliveries" DROP COLUMN "parked";--> statement-breakpoint
-- Wake-ups for deliveries coming due: one keyed graphile job per 100 ms bucket (a due or past time
-- shares the one immediate job), so a batch of retries schedules a handful of jobs, not one each.
-- A waiting job is updated in place; one already running gets a successor (graphile's job_key
-- semantics). Buckets are added in ascending order: transactions adding the same keyed jobs in
-- different orders could deadlock. A null time is now.
CREATE OR REPLACE FUNCTION webhook_admin_wake_deliveries(p_at timestamptz[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v_bucket bigint;
BEGIN
  FOR v_bucket IN
    SELECT DISTINCT CASE WHEN t IS NULL OR t <= clock_timestamp() THEN 0 ELSE ceil(extract(epoch FROM t) * 10)::bigint * 100 END AS b
    FROM unnest(p_at) AS t
    ORDER BY b
  LOOP
    IF v_bucket = 0 THEN
      PERFORM graphile_worker.add_job('deliver_due', '{}'::json, job_key := 'deliver_due', max_attempts := 10);
    ELSE
      PERFORM graphile_worker.add_job('deliver_due', '{}'::json, run_at := to_timestamp(v_bucket / 1000.0),
        job_key := 'deliver_due@' || v_bucket, job_key_mode := 'preserve_run_at', max_attempts := 10);
    END IF;
  END LOOP;
END $$;
--> statement-breakpoint
-- The signing secrets of an endpoint right now, newest first, as ciphertexts: the current one and
-- any still in rotation overlap.
CREATE OR REPLACE FUNCTION webhook_admin_signing_secrets(p_endpoint_id text) RETURNS text[]
LANGUAGE sql STABLE AS $$
  SELECT array(SELECT s.ciphertext FROM endpoint_secrets s
               WHERE s.endpoint_id = p_endpoint_id AND (s.expires_at IS NULL OR s.expires_at > now())
               ORDER BY s.created_at DESC)
$$;
--> statement-breakpoint
-- The claim, in one call (one round trip instead of six: a busy worker's event loop adds its lag to
-- every round trip, and claims are taken one at a time per process). Leases due deliveries, at most
-- p_limit, within every endpoint's limits — concurrency cap, rate limit, circuit breaker — counted
-- here so they hold across all worker processes. Everything scanned is claimed, parked or canceled:
-- a delivery that must wait is moved out of the way, so it never blocks other endpoints' work.
--
-- The lease is the queue row's next_attempt_at pushed to the lease's end, with p_token: if the
-- worker dies, the delivery comes due again then, and a late outcome from the old holder no longer
-- matches the token. Due rows are scanned with SKIP LOCKED so workers claim side by side; endpoint
-- rows are locked (in id order, as outcome writes lock them) so two claims never both take an
-- endpoint's last slot.
-- Each statement of a plpgsql function takes a fresh snapshot: the leased counts below are read
-- after the endpoint locks are held, so they include what another claim committed just before.
--
-- Returned rows carry `more` (due work remains beyond this claim: the caller claims again; the
-- other workers have been notified too) and `probe` (the half-open circuit's single trial attempt).
CREATE OR REPLACE FUNCTION webhook_admin_claim_deliveries(
  p_limit integer, p_lease_ms integer, p_default_concurrency integer, p_token text,
  -- The lease's end, rounded, when this process has not yet woken a job for it (null otherwise):
  -- if the worker dies, that job finds its deliveries due again.
  p_lease_wake_at timestamptz
) RETURNS TABLE (
  id text, message_id text, endpoint_id text, consumer_id text, attempts integer, scheduled_attempts integer,
  created_at timestamptz, payload text, url text, headers jsonb, ciphertexts text[], probe boolean, more boolean
)
-- Bitmap scans never mark index entries of dead rows, so the leased counts would visit every lease
-- ever taken until vacuum; plain index scans skip them after the first visit.
LANGUAGE plpgsql SET enable_bitmapscan TO off AS $$
#variable_conflict use_column
DECLARE
  v_lease_end timestamptz := now() + p_lease_ms * interval '1 millisecond';
  v_second timestamptz := date_trunc('second', now());
  v_ids text[];
  v_endpoints text[];
  v_locked text[];
  -- Due work seen here but left to another claim (endpoint busy elsewhere, batch full).
  v_skipped boolean;
  v_claim text[] := '{}';
  v_probes text[] := '{}';
  v_park text[] := '{}';
  v_park_until timestamptz[] := '{}';
  v_park_for_slot boolean[] := '{}';
  v_cancel text[] := '{}';
  e record;
  v_allowed integer;
  v_taken integer;
  v_rest text[];
  v_half_open boolean;
  v_window_start timestamptz;
  v_window_count integer;
  v_rate_spent boolean;
  v_slots_full boolean;
  v_circuit timestamptz;
  v_more boolean;
  v_releasing boolean;
BEGIN
  SELECT coalesce(array_agg(d.id ORDER BY d.next_attempt_at, d.id), '{}'), coalesce(array_agg(d.endpoint_id ORDER BY d.next_attempt_at, d.id), '{}')
  INTO v_ids, v_endpoints
  FROM (
    SELECT q.delivery_id AS id, q.endpoint_id, q.next_attempt_at FROM delivery_queue q
    WHERE q.next_attempt_at <= now()
    ORDER BY q.next_attempt_at
    LIMIT p_limit * 2
    FOR UPDATE SKIP LOCKED
  ) d;
  IF cardinality(v_ids) = 0 THEN
    RETURN;
  END IF;

  -- Endpoints another claim (or an outcome write) holds right now are skipped, not waited for:
  -- their due deliveries stay due for the next claim, and concurrent claims share out endpoints.
  SELECT coalesce(array_agg(x.id), '{}') INTO v_locked
  FROM (SELECT en.id FROM endpoints en WHERE en.id = ANY (v_endpoints) ORDER BY en.id FOR UPDATE SKIP LOCKED) x;
  v_skipped := EXISTS (SELECT 1 FROM unnest(v_endpoints) AS ep WHERE ep <> ALL (v_locked));

  -- Endpoints in the order of their oldest due delivery, so the batch limit is shared fairly.
  FOR e IN
    WITH c AS (SELECT * FROM unnest(v_ids, v_endpoints) WITH ORDINALITY AS c(id, endpoint_id, n)),
    w AS (
      SELECT c.endpoint_id, array_agg(c.id ORDER BY c.n) AS waiting, min(c.n) AS first
      FROM c WHERE c.endpoint_id = ANY (v_locked) GROUP BY c.endpoint_id
    )
    SELECT en.id, en.state, coalesce(en.max_concurrency, p_default_concurrency) AS max_concurrency,
           en.rate_limit_per_second, en.rate_window_start, en.rate_window_count, en.circuit_open_until, w.waiting,
           (SELECT count(*) FROM delivery_queue l
            WHERE l.endpoint_id = en.id AND l.lease_token IS NOT NULL AND l.next_attempt_at > now())::integer AS leased
    FROM w JOIN endpoints en ON en.id = w.endpoint_id
    ORDER BY w.first
  LOOP
    IF e.state <> 'active' THEN
      v_cancel := v_cancel || e.waiting;
      CONTINUE;
    END IF;
    -- Open circuit (or a probe in flight): nothing goes. The backlog waits parked — not re-polled —
    -- and the probe's outcome wakes it; the circuit's end is only the safety net.
    IF e.circuit_open_until IS NOT NULL AND e.circuit_open_until > now() THEN
      v_park := v_park || e.waiting;
      v_park_until := v_park_until || array_fill(e.circuit_open_until, ARRAY[cardinality(e.waiting)]);
      v_park_for_slot := v_park_for_slot || array_fill(true, ARRAY[cardinality(e.waiting)]);
      CONTINUE;
    END IF;
    v_half_open := e.circuit_open_until IS NOT NULL;
    v_allowed := greatest(0, e.max_concurrency - e.leased);
    IF v_half_open THEN
      v_allowed := least(v_allowed, CASE WHEN e.leased = 0 THEN 1 ELSE 0 END);
    END IF;
    v_window_start := e.rate_window_start;
    v_window_count := e.rate_window_count;
    IF e.rate_limit_per_second IS NOT NULL THEN
      IF v_window_start IS DISTINCT FROM v_second THEN
        v_window_start := v_second;
        v_window_count := 0;
      END IF;
      v_allowed := least(v_allowed, greatest(0, e.rate_limit_per_second - v_window_count));
    END IF;
    v_allowed := least(v_allowed, p_limit - cardinality(v_claim));
    v_taken := least(v_allowed, cardinality(e.waiting));
    v_claim := v_claim || e.waiting[1:v_taken];
    IF v_half_open THEN
      v_probes := v_probes || e.waiting[1:v_taken];
    END IF;
    v_rest := e.waiting[v_taken + 1:];
    IF e.rate_limit_per_second IS NOT NULL THEN
      v_window_count := v_window_count + v_taken;
    END IF;
    v_rate_spent := e.rate_limit_per_second IS NOT NULL AND v_window_count >= e.rate_limit_per_second;
    v_slots_full := e.leased + v_taken >= e.max_concurrency OR v_half_open;
    IF cardinality(v_rest) > 0 THEN
      IF v_rate_spent AND NOT v_slots_full THEN
        -- This second's rate budget is spent: due again at the next second.
        v_park := v_park || v_rest;
        v_park_until := v_park_until || array_fill(v_second + interval '1 second', ARRAY[cardinality(v_rest)]);
        v_park_for_slot := v_park_for_slot || array_fill(false, ARRAY[cardinality(v_rest)]);
      ELSIF v_slots_full OR v_rate_spent THEN
        -- Waiting for a free slot (or the probe's outcome): woken by the endpoint's next outcome;
        -- the lease's end is the safety net should no outcome come. But a lease whose outcome
        -- another transaction is writing right now (its row is locked) cannot wake what this claim
        -- parks — that outcome's snapshot does not see it — so then they wait briefly, as due work.
        v_releasing := false;
        IF e.leased > 0 THEN
          SELECT count(*) < e.leased INTO v_releasing FROM (
            SELECT 1 FROM delivery_queue l
            WHERE l.endpoint_id = e.id AND l.lease_token IS NOT NULL AND l.next_attempt_at > now()
            FOR KEY SHARE SKIP LOCKED
          ) x;
        END IF;
        v_park := v_park || v_rest;
        IF v_releasing THEN
          v_park_until := v_park_until || array_fill(clock_timestamp() + interval '100 milliseconds', ARRAY[cardinality(v_rest)]);
          v_park_for_slot := v_park_for_slot || array_fill(false, ARRAY[cardinality(v_rest)]);
        ELSE
          v_park_until := v_park_until || array_fill(v_lease_end, ARRAY[cardinality(v_rest)]);
          v_park_for_slot := v_park_for_slot || array_fill(true, ARRAY[cardinality(v_rest)]);
        END IF;
      ELSE
        -- Beyond the batch limit: stays due for the next claim.
        v_skipped := true;
      END IF;
    END IF;
    -- A half-open circuit is held open for the probe's lease, so no other worker probes too.
    v_circuit := CASE WHEN v_half_open AND v_taken > 0 THEN v_lease_end ELSE e.circuit_open_until END;
    IF v_circuit IS DISTINCT FROM e.circuit_open_until OR v_window_start IS DISTINCT FROM e.rate_window_start
       OR v_window_count <> e.rate_window_count THEN
      UPDATE endpoints SET circuit_open_until = v_circuit, rate_window_start = v_window_start, rate_window_count = v_window_count
      WHERE endpoints.id = e.id;
    END IF;
  END LOOP;

  IF cardinality(v_park) > 0 THEN
    UPDATE delivery_queue q SET parked = q.parked OR v.for_slot, next_attempt_at = v.until
    FROM unnest(v_park, v_park_until, v_park_for_slot) AS v(id, until, for_slot)
    WHERE q.delivery_id = v.id;
    -- Parked deliveries come due again at their time; something must be there to claim them then.
    PERFORM webhook_admin_wake_deliveries(v_park_until);
  END IF;
  IF cardinality(v_cancel) > 0 THEN
    DELETE FROM delivery_queue WHERE delivery_queue.delivery_id = ANY (v_cancel);
    UPDATE deliveries SET status = 'canceled', next_attempt_at = NULL, last_error = 'endpoint_not_active', updated_at = now()
    WHERE deliveries.id = ANY (v_cancel);
  END IF;
  IF cardinality(v_claim) = 0 THEN
    -- Nothing taken, yet due work may remain: beyond the scanned window (all of it parked or
    -- canceled, e.g. one endpoint's backlog behind an open circuit) a claim goes on at once; for
    -- endpoints another transaction holds, shortly. Nothing else would come back for it.
    IF cardinality(v_ids) = p_limit * 2 THEN
      PERFORM webhook_admin_wake_deliveries(ARRAY[NULL::timestamptz]);
    ELSIF v_skipped THEN
      PERFORM webhook_admin_wake_deliveries(ARRAY[clock_timestamp() + interval '100 milliseconds']);
    END IF;
    RETURN;
  END IF;

  v_more := v_skipped OR cardinality(v_claim) = p_limit OR cardinality(v_ids) = p_limit * 2;
  -- Due work remains beyond this claim: other worker processes join in. A NOTIFY (each worker's
  -- listener has its pump claim) costs a fraction of adding a graphile job here on every claim.
  IF v_more THEN
    PERFORM pg_notify('webhook_admin_due', '');
  END IF;
  IF p_lease_wake_at IS NOT NULL THEN
    PERFORM graphile_worker.add_job('deliver_due', '{}'::json, run_at := p_lease_wake_at,
      job_key := 'deliver_due@lease@' || (extract(epoch FROM p_lease_wake_at) * 1000)::bigint,
      job_key_mode := 'preserve_run_at', max_attempts := 10);
  END IF;
  UPDATE delivery_queue SET next_attempt_at = v_lease_end, lease_token = p_token, parked = false
  WHERE delivery_queue.delivery_id = ANY (v_claim);
  -- Driven by the claimed ids, with the endpoints' fields as subqueries: joined to endpoints, the
  -- planner may start from the few endpoints and walk each one's whole delivery history.
  RETURN QUERY
    WITH en AS MATERIALIZED (
      -- Secrets read once per endpoint, not once per delivery.
      SELECT en.id, en.url, en.headers, webhook_admin_signing_secrets(en.id) AS ciphertexts
      FROM endpoints en WHERE en.id = ANY (v_locked)
    )
    SELECT d.id, d.message_id, d.endpoint_id, d.consumer_id, d.attempts, d.scheduled_attempts, d.created_at::timestamptz,
           m.payload,
           (SELECT en.url FROM en WHERE en.id = d.endpoint_id),
           (SELECT en.headers FROM en WHERE en.id = d.endpoint_id),
           (SELECT en.ciphertexts FROM en WHERE en.id = d.endpoint_id),
           d.id = ANY (v_probes), v_more
    FROM unnest(v_claim) AS c(id)
    JOIN deliveries d ON d.id = c.id
    JOIN messages m ON m.id = d.message_id;
END $$;
--> statement-breakpoint
-- Ends the pending deliveries of endpoints that stopped (disabled by a person or the 5-day rule);
-- a recovery can bring them back. Returns how many.
CREATE OR REPLACE FUNCTION webhook_admin_cancel_pending(p_endpoint_ids text[], p_reason text) RETURNS integer
LANGUAGE sql AS $$
  WITH gone AS (DELETE FROM delivery_queue WHERE endpoint_id = ANY (p_endpoint_ids) RETURNING delivery_id),
  canceled AS (
    UPDATE deliveries d SET status = 'canceled', next_attempt_at = NULL, last_error = p_reason, updated_at = now()
    FROM gone WHERE d.id = gone.delivery_id
    RETURNING 1
  )
  SELECT count(*)::integer FROM canceled
$$;

-- Ordered delivery's lines. On an endpoint whose `ordering` is 'ordered', each queue row of a
-- scheduled delivery (and of a recovery item) carries its line: `line_key`, the value of the
-- endpoint's ordering key in the message's payload ('' when the endpoint is one line), and
-- `line_seq`, its place. Of a line's rows of one kind only the first is ever due; the rest are held,
-- next_attempt_at 'infinity', which no claim scans. A row leaves the queue only when its delivery is
-- settled for good (succeeded, exhausted, canceled by a disable, deleted): then the next is released
-- (the trigger below). Retries, leases, parks and the circuit move the head's row without deleting
-- it, so the line waits through them. Manual resends carry no line: attempted at once, out of order.
--
-- A line is guarded by a transaction-level advisory lock, taken by whoever adds rows to it and by
-- the release, so a message written while its line's head is settling is never left held behind
-- nothing. Collisions of the lock's hash only make two lines wait for each other's writes.
-- Applied after the migrations by lib/db/functions.ts.
CREATE OR REPLACE FUNCTION webhook_admin_lock_line(p_endpoint_id text, p_kind smallint, p_line_key text) RETURNS void
LANGUAGE sql AS $$
  SELECT pg_advisory_xact_lock(hashtext('webhook_admin_line'), hashtext(p_endpoint_id || '/' || p_kind || '/' || p_line_key))
$$;

-- lib/ordering/line-key.ts's rule in SQL, for rows queued from the database (a recovery's): the
-- value at the dotted path, a string as it is, a number or boolean as its JSON text, else ''; a
-- value longer than 128 characters named by its SHA-256.
CREATE OR REPLACE FUNCTION webhook_admin_line_key(p_payload jsonb, p_path text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN length(k) > 128 THEN '#' || encode(sha256(convert_to(k, 'UTF8')), 'hex') ELSE k END
  FROM (SELECT CASE WHEN p_path IS NULL THEN ''
                    WHEN jsonb_typeof(p_payload #> string_to_array(p_path, '.')) IN ('string', 'number', 'boolean')
                      THEN p_payload #>> string_to_array(p_path, '.')
                    ELSE '' END AS k) v
$$;

-- Before rows are added to lines: locks them (in one order, so two writers never deadlock), says of
-- each whether it already has rows (then every new row is held; else the first new one is due), and
-- hands out p_count places, ascending, taken under the locks: a line's places follow the order its
-- writers committed in.
CREATE OR REPLACE FUNCTION webhook_admin_open_lines(p_endpoint_ids text[], p_line_keys text[], p_kind smallint, p_count integer)
RETURNS TABLE (busy boolean[], seqs bigint[])
LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  FOR r IN SELECT DISTINCT v.endpoint_id, v.line_key FROM unnest(p_endpoint_ids, p_line_keys) AS v(endpoint_id, line_key) ORDER BY 1, 2 LOOP
    PERFORM webhook_admin_lock_line(r.endpoint_id, p_kind, r.line_key);
  END LOOP;
  RETURN QUERY SELECT
    ARRAY(SELECT EXISTS (SELECT 1 FROM delivery_queue q WHERE q.endpoint_id = v.endpoint_id AND q.line_key = v.line_key AND q.kind = p_kind)
          FROM unnest(p_endpoint_ids, p_line_keys) WITH ORDINALITY AS v(endpoint_id, line_key, n) ORDER BY v.n),
    ARRAY(SELECT nextval('delivery_line_seq') FROM generate_series(1, p_count) ORDER BY 1);
END $$;

-- A line's head left the queue: release the next row of its line, unless a head is still there
-- (it never is, but a row written by hand or an old release must not make two). Workers are told at
-- once, as the claim tells them of due work it leaves.
CREATE OR REPLACE FUNCTION webhook_admin_release_line() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM webhook_admin_lock_line(OLD.endpoint_id, OLD.kind, OLD.line_key);
  IF NOT EXISTS (SELECT 1 FROM delivery_queue q WHERE q.endpoint_id = OLD.endpoint_id AND q.line_key = OLD.line_key AND q.kind = OLD.kind
                 AND q.next_attempt_at <> 'infinity') THEN
    UPDATE delivery_queue q SET next_attempt_at = date_trunc('milliseconds', now())
    FROM (SELECT h.delivery_id FROM delivery_queue h WHERE h.endpoint_id = OLD.endpoint_id AND h.line_key = OLD.line_key AND h.kind = OLD.kind
          ORDER BY h.line_seq LIMIT 1) n
    WHERE q.delivery_id = n.delivery_id AND q.kind = OLD.kind;
    IF FOUND THEN
      -- The payload names the kind: only the worker lane serving it claims (lib/jobs wakePayload).
      PERFORM pg_notify('webhook_admin_due', OLD.kind::text);
    END IF;
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER delivery_queue_release_line AFTER DELETE ON delivery_queue
FOR EACH ROW WHEN (OLD.line_key IS NOT NULL AND OLD.next_attempt_at <> 'infinity')
EXECUTE FUNCTION webhook_admin_release_line();

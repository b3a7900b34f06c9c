-- A payload as jsonb for payload search (messages_payload_idx), or null where jsonb cannot hold it
-- (U+0000, a lone surrogate: valid JSON we deliver byte-exact). Immutable and in an index: its
-- body must never change meaning (a change is a new function and a new index).
-- First made by migration 0010; applied after the migrations by lib/db/functions.ts.
CREATE OR REPLACE FUNCTION webhook_admin_payload_jsonb(payload text) RETURNS jsonb
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE STRICT AS $$
BEGIN
  RETURN payload::jsonb;
EXCEPTION WHEN OTHERS THEN
  RETURN NULL;
END
$$;

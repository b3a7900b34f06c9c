-- An endpoint's signing secrets still in force, newest first, as stored (encrypted): the current
-- one and any still in its rotation overlap. First made by migration 0003; applied after the
-- migrations by lib/db/functions.ts.
CREATE OR REPLACE FUNCTION webhook_admin_signing_secrets(p_endpoint_id text) RETURNS text[]
LANGUAGE sql STABLE AS $$
  SELECT array(SELECT s.ciphertext FROM endpoint_secrets s
               WHERE s.endpoint_id = p_endpoint_id AND (s.expires_at IS NULL OR s.expires_at > now())
               ORDER BY s.created_at DESC)
$$;

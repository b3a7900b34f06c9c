-- Audit events hold ids, never URLs (docs/security.md), but endpoint.created kept the endpoint's
-- URL until this release, and an erasure could empty it only for the endpoints it knew of: one
-- deleted before its consumer's erasure kept its URL until AUDIT_RETENTION. From this release the
-- event records the consumer's id instead; the URLs already kept are removed here. Only those rows
-- are touched (row locks, which no writer of new audit events waits on).
UPDATE "audit_events" SET "data" = "data" - 'url' WHERE "action" = 'endpoint.created' AND "data" ->> 'url' IS NOT NULL;

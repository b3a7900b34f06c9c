-- Where an endpoint's rows past its rate limit are booked up to (claim/apply-limits.sql): a backlog
-- behind a rate limit is parked once, each row at its own time, instead of all of it again every second.
-- IF NOT EXISTS: the partition upgrade suite (tests/lifecycle/partition-upgrade.test.ts) drives this
-- release's code on an older schema and puts it in place beforehand, as for 0033's.
ALTER TABLE "endpoints" ADD COLUMN IF NOT EXISTS "rate_booked_until" timestamp (3) with time zone;

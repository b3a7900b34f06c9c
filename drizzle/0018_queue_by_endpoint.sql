-- concurrently
-- The queue by endpoint (issue 22): disabling, auto-disabling and deleting an endpoint lock its
-- queue rows and cancel them while holding locks, and without an index on endpoint_id that read
-- the whole of delivery_queue (a sequential scan of a million queued rows under lock). Built
-- CONCURRENTLY, outside the migration's transaction: the queue is written by every ingest, lease
-- and outcome.
CREATE INDEX CONCURRENTLY IF NOT EXISTS "delivery_queue_endpoint_idx" ON "delivery_queue" USING btree ("endpoint_id");

-- Svix app-portal tokens (issue 42). A portal session now says whether it came from the Svix API:
-- "token" (appPortalAccess's bearer `token`, taken only by the Svix routes of its application),
-- "link" (a session opened by its `url`), null (our own portal link); the link says so too, and
-- both keep Svix's `sessionId` for expire-all's `sessionIds`. Nullable or with a constant default:
-- catalog changes only, on tables of live sessions and links.
ALTER TABLE "portal_sessions" ADD COLUMN IF NOT EXISTS "svix" text;--> statement-breakpoint
ALTER TABLE "portal_sessions" ADD COLUMN IF NOT EXISTS "svix_session_id" text;--> statement-breakpoint
ALTER TABLE "portal_tokens" ADD COLUMN IF NOT EXISTS "svix" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "portal_tokens" ADD COLUMN IF NOT EXISTS "svix_session_id" text;--> statement-breakpoint
-- migration-safety: portal_sessions holds only live sessions (one per customer visit), not traffic.
ALTER TABLE "portal_sessions" ADD CONSTRAINT "portal_sessions_svix_check" CHECK ("portal_sessions"."svix" in ('link', 'token'));--> statement-breakpoint
-- Tokens appPortalAccess made before this release are the sessions a caller started (a link's
-- session starts itself, as actor "portal"): they are Svix tokens too, from now on held to the
-- Svix routes.
UPDATE "portal_sessions" s SET "svix" = 'token'
WHERE EXISTS (SELECT 1 FROM "audit_events" a WHERE a."target_id" = s."id" AND a."action" = 'portal_session.started' AND a."actor_type" <> 'portal');--> statement-breakpoint
-- A kept answer of POST /auth/app-portal-access held its live `ps_` token and `pt_` link in clear:
-- no longer kept (a replay mints anew), the ones kept before go.
DELETE FROM "api_idempotency" WHERE "body" LIKE '{"url":%' AND "body" LIKE '%"token":"ps\_%';

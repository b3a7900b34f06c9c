import { svixCatchAll } from "@/lib/svix/unserved";

// Svix Ingest's base path (/ingest/api/v1), where Svix's document puts its Ingest operations: each
// answers 501 in Svix's shape with why (this server sends webhooks, it receives none), after the
// same API-key authentication as /api/v1; any other path here is a JSON 404, never an HTML page.
export { svixCatchAll as GET, svixCatchAll as POST, svixCatchAll as PUT, svixCatchAll as PATCH, svixCatchAll as DELETE, svixCatchAll as OPTIONS };

/**
 * Every route of app/ (app/api's, and Svix Ingest's catch-all in app/ingest/api), as its folder
 * spells it: the only route text a request's metric labels, access line and span name carry (./served.ts). A request is labelled with the template of
 * the route its path reaches, matched here as Next.js routes (a static segment before a dynamic
 * one, a dynamic one before a catch-all), or with UNMATCHED_ROUTE — never with text of its own: a
 * label built from the path made a series per path a client sent, ids whose %2F split them into
 * more segments than their route has included. So these are the series, however many paths, ids or
 * Host headers clients send. A new route adds its folder here (./route-templates.test.ts compares
 * the list with app/).
 */
export const ROUTE_TEMPLATES: readonly string[] = [
  "/api/auth/[...nextauth]",
  "/api/demo/receiver/[name]",
  "/api/health",
  "/api/health/ready",
  "/api/metrics",
  "/api/v1/[...path]",
  "/api/v1/alert-channels",
  "/api/v1/alert-channels/[id]",
  "/api/v1/alert-channels/[id]/test",
  "/api/v1/alerts",
  "/api/v1/api-keys",
  "/api/v1/api-keys/[id]",
  "/api/v1/app",
  "/api/v1/app/[...rest]",
  "/api/v1/app/[app_id]",
  "/api/v1/app/[app_id]/attempt/endpoint/[endpoint_id]",
  "/api/v1/app/[app_id]/attempt/msg/[msg_id]",
  "/api/v1/app/[app_id]/endpoint",
  "/api/v1/app/[app_id]/endpoint/[endpoint_id]",
  "/api/v1/app/[app_id]/endpoint/[endpoint_id]/headers",
  "/api/v1/app/[app_id]/endpoint/[endpoint_id]/msg",
  "/api/v1/app/[app_id]/endpoint/[endpoint_id]/recover",
  "/api/v1/app/[app_id]/endpoint/[endpoint_id]/replay-missing",
  "/api/v1/app/[app_id]/endpoint/[endpoint_id]/secret",
  "/api/v1/app/[app_id]/endpoint/[endpoint_id]/secret/rotate",
  "/api/v1/app/[app_id]/endpoint/[endpoint_id]/send-example",
  "/api/v1/app/[app_id]/endpoint/[endpoint_id]/stats",
  "/api/v1/app/[app_id]/msg",
  "/api/v1/app/[app_id]/msg/bulk-expunge",
  "/api/v1/app/[app_id]/msg/expunge-all-contents",
  "/api/v1/app/[app_id]/msg/[msg_id]",
  "/api/v1/app/[app_id]/msg/[msg_id]/attempt/[attempt_id]",
  "/api/v1/app/[app_id]/msg/[msg_id]/attempt/[attempt_id]/content",
  "/api/v1/app/[app_id]/msg/[msg_id]/content",
  "/api/v1/app/[app_id]/msg/[msg_id]/endpoint",
  "/api/v1/app/[app_id]/msg/[msg_id]/endpoint/[endpoint_id]/resend",
  "/api/v1/app/[app_id]/poller/[sink_id]",
  "/api/v1/app/[app_id]/poller/[sink_id]/consumer/[consumer_id]",
  "/api/v1/app/[app_id]/poller/[sink_id]/consumer/[consumer_id]/seek",
  "/api/v1/attempts",
  "/api/v1/audit-events",
  "/api/v1/auth/[...rest]",
  "/api/v1/auth/app-portal-access/[app_id]",
  "/api/v1/auth/app/[app_id]/expire-all",
  "/api/v1/auth/logout",
  "/api/v1/background-task",
  "/api/v1/background-task/[...rest]",
  "/api/v1/background-task/[task_id]",
  "/api/v1/consumers",
  "/api/v1/consumers/[consumer]",
  "/api/v1/consumers/[consumer]/endpoints",
  "/api/v1/consumers/[consumer]/portal-links",
  "/api/v1/consumers/[consumer]/portal-sessions",
  "/api/v1/consumers/[consumer]/recover",
  "/api/v1/data-lifecycle",
  "/api/v1/endpoints",
  "/api/v1/endpoints/[id]",
  "/api/v1/endpoints/[id]/disable",
  "/api/v1/endpoints/[id]/enable",
  "/api/v1/endpoints/[id]/filter/test",
  "/api/v1/endpoints/[id]/lines",
  "/api/v1/endpoints/[id]/poll",
  "/api/v1/endpoints/[id]/poll-status",
  "/api/v1/endpoints/[id]/poll-tokens",
  "/api/v1/endpoints/[id]/poll-tokens/[token_id]",
  "/api/v1/endpoints/[id]/recover",
  "/api/v1/endpoints/[id]/secret",
  "/api/v1/endpoints/[id]/secret/rotate",
  "/api/v1/endpoints/[id]/stats",
  "/api/v1/endpoints/[id]/test",
  "/api/v1/environment/export",
  "/api/v1/environment/import",
  "/api/v1/erasures/[id]",
  "/api/v1/event-type",
  "/api/v1/event-type/[...rest]",
  "/api/v1/event-type/[event_type_name]",
  "/api/v1/event-types",
  "/api/v1/event-types/[name]",
  "/api/v1/event-types/[name]/schemas",
  "/api/v1/event-types/[name]/schemas/[version]",
  "/api/v1/event-types/[name]/schemas/[version]/typescript",
  "/api/v1/health",
  "/api/v1/messages",
  "/api/v1/messages/[id]",
  "/api/v1/messages/[id]/attempts",
  "/api/v1/messages/[id]/payload",
  "/api/v1/messages/[id]/resend",
  "/api/v1/messages/batch",
  "/api/v1/openapi.json",
  "/api/v1/operational-webhook/[...rest]",
  "/api/v1/operational-webhook/endpoint",
  "/api/v1/operational-webhook/endpoint/[endpoint_id]",
  "/api/v1/operational-webhook/endpoint/[endpoint_id]/headers",
  "/api/v1/operational-webhook/endpoint/[endpoint_id]/secret",
  "/api/v1/operational-webhook/endpoint/[endpoint_id]/secret/rotate",
  "/api/v1/operators",
  "/api/v1/operators/[id]",
  "/api/v1/operators/[id]/sessions",
  "/api/v1/operators/[id]/two-factor",
  "/api/v1/portal/session",
  "/api/v1/recoveries",
  "/api/v1/recoveries/[id]",
  "/api/v1/recoveries/[id]/cancel",
  "/api/v1/recoveries/[id]/items",
  "/api/v1/recoveries/[id]/pause",
  "/api/v1/recoveries/[id]/resume",
  "/api/v1/recoveries/[id]/retry-failed",
  "/api/v1/sessions",
  "/api/v1/sessions/[id]",
  "/api/v1/sessions/end-others",
  "/api/v1/stats",
  "/api/v1/stats/usage/app",
  "/api/v1/two-factor",
  "/api/v1/two-factor/enrollment",
  "/api/v1/two-factor/enrollment/confirm",
  "/api/v1/two-factor/policy",
  "/ingest/api/v1/[...path]",
];

/** The label of a request whose path is none of the templates'. */
export const UNMATCHED_ROUTE = "unmatched";

type Node = { statics: Map<string, Node>; dynamic?: Node; catchAll?: string; template?: string };

function compile(templates: readonly string[]): Node {
  const root: Node = { statics: new Map() };
  for (const template of templates) {
    let at = root;
    let catchAll = false;
    for (const segment of template.split("/").filter(Boolean)) {
      if (segment.startsWith("[...")) {
        at.catchAll = template;
        catchAll = true;
        break;
      }
      const next: Node = (segment.startsWith("[") ? at.dynamic : at.statics.get(segment)) ?? { statics: new Map() };
      if (segment.startsWith("[")) at.dynamic = next;
      else at.statics.set(segment, next);
      at = next;
    }
    if (!catchAll) at.template = template;
  }
  return root;
}

const routes = compile(ROUTE_TEMPLATES);

function find(at: Node, segments: string[], i: number): string | undefined {
  if (i === segments.length) return at.template;
  const next = at.statics.get(segments[i]!);
  return (next && find(next, segments, i + 1)) ?? (at.dynamic && find(at.dynamic, segments, i + 1)) ?? at.catchAll;
}

/**
 * The template of the route a request path reaches (`/api/v1/messages/msg_01…/resend` →
 * `/api/v1/messages/[id]/resend`), or UNMATCHED_ROUTE. Segments are compared as sent, so an
 * encoded "/" never splits one.
 */
export function routeTemplate(pathname: string): string {
  return find(routes, pathname.split("/").filter(Boolean), 0) ?? UNMATCHED_ROUTE;
}

import { API_ROUTES } from "../../app/api/v1/routes";
import { HTTP_METHODS } from "../../lib/http/methods";
import { isOtherMethod } from "../../lib/http/methods";
import { routeContract, type RouteContract } from "../../lib/http/route-contract";

export type ApiRoute = {
  /** The OpenAPI path, relative to /api/v1: /consumers/{consumer}. */
  path: string;
  /** The route file's folders: /consumers/[consumer]. */
  folder: string;
  module: Record<string, unknown>;
  /** The methods the route implements (not the 405 and OPTIONS stand-ins), with their contracts. */
  methods: { method: string; handler: unknown; contract: RouteContract | undefined }[];
};

/** Every route of app/api/v1/routes.ts, the one list the route tests walk. */
export function apiRoutes(): ApiRoute[] {
  return Object.entries(API_ROUTES).map(([path, module]) => ({
    path,
    folder: path.replace(/\{(\w+)\*\}/g, "[...$1]").replace(/\{(\w+)\}/g, "[$1]"),
    module,
    methods: HTTP_METHODS.filter((method) => method !== "HEAD" && method !== "OPTIONS")
      .filter((method) => typeof module[method] === "function" && !isOtherMethod(module[method]))
      .map((method) => ({ method, handler: module[method], contract: routeContract(module[method]) })),
  }));
}

/** `METHOD /folder` for each implemented method, as the route tests key their tables. */
export function routeKeys(): string[] {
  return apiRoutes().flatMap((route) => route.methods.map(({ method }) => `${method} ${route.folder === "/" ? "" : route.folder}`));
}

/**
 * A request to each Svix route that is the SaaS's alone, never its customer's (sending, the
 * applications themselves, the event-type catalog's writes, portal access, expunging, the operational webhooks, unmatched paths): the
 * route tables of tests/portal/scope.test.ts and tests/svix/portal-token.test.ts refuse them alike.
 */
export const SVIX_SAAS_ONLY: Record<string, (a: { uid: string }) => { path: string; body?: unknown }> = {
  "POST /app/[app_id]/msg": (a) => ({ path: `/app/${a.uid}/msg`, body: { eventType: "invoice.paid", payload: {} } }),
  "POST /app": () => ({ path: "/app", body: { name: "By portal" } }),
  "PUT /app/[app_id]": (a) => ({ path: `/app/${a.uid}`, body: { name: "By portal" } }),
  "PATCH /app/[app_id]": (a) => ({ path: `/app/${a.uid}`, body: { name: "By portal" } }),
  "DELETE /app/[app_id]": (a) => ({ path: `/app/${a.uid}` }),
  "POST /event-type": () => ({ path: "/event-type", body: { name: "portal.made", description: "" } }),
  "PUT /event-type/[event_type_name]": () => ({ path: "/event-type/invoice.paid", body: { description: "portal" } }),
  "PATCH /event-type/[event_type_name]": () => ({ path: "/event-type/invoice.paid", body: { description: "portal" } }),
  "DELETE /event-type/[event_type_name]": () => ({ path: "/event-type/invoice.paid" }),
  "POST /auth/app-portal-access/[app_id]": (a) => ({ path: `/auth/app-portal-access/${a.uid}`, body: {} }),
  "POST /auth/app/[app_id]/expire-all": (a) => ({ path: `/auth/app/${a.uid}/expire-all`, body: {} }),
  "POST /app/[app_id]/msg/bulk-expunge": (a) => ({ path: `/app/${a.uid}/msg/bulk-expunge`, body: { ids: ["by-portal"] } }),
  "POST /app/[app_id]/msg/expunge-all-contents": (a) => ({ path: `/app/${a.uid}/msg/expunge-all-contents` }),
  "DELETE /app/[app_id]/msg/[msg_id]/content": (a) => ({ path: `/app/${a.uid}/msg/msg_by_portal/content` }),
  "DELETE /app/[app_id]/msg/[msg_id]/attempt/[attempt_id]/content": (a) => ({ path: `/app/${a.uid}/msg/msg_by_portal/attempt/att_by_portal/content` }),
  "POST /environment/export": () => ({ path: "/environment/export" }),
  "POST /environment/import": () => ({ path: "/environment/import", body: {} }),
  "POST /stats/usage/app": () => ({ path: "/stats/usage/app", body: { since: "2020-01-01T00:00:00Z", until: "2020-01-02T00:00:00Z" } }),
  "GET /operational-webhook/endpoint": () => ({ path: "/operational-webhook/endpoint" }),
  "POST /operational-webhook/endpoint": () => ({ path: "/operational-webhook/endpoint", body: { url: "http://127.0.0.1:9/by-portal" } }),
  "GET /operational-webhook/endpoint/[endpoint_id]": () => ({ path: "/operational-webhook/endpoint/ach_by_portal" }),
  "PUT /operational-webhook/endpoint/[endpoint_id]": () => ({ path: "/operational-webhook/endpoint/ach_by_portal", body: { url: "http://127.0.0.1:9/by-portal" } }),
  "DELETE /operational-webhook/endpoint/[endpoint_id]": () => ({ path: "/operational-webhook/endpoint/ach_by_portal" }),
  "GET /operational-webhook/endpoint/[endpoint_id]/secret": () => ({ path: "/operational-webhook/endpoint/ach_by_portal/secret" }),
  "POST /operational-webhook/endpoint/[endpoint_id]/secret/rotate": () => ({ path: "/operational-webhook/endpoint/ach_by_portal/secret/rotate", body: {} }),
  "GET /operational-webhook/endpoint/[endpoint_id]/headers": () => ({ path: "/operational-webhook/endpoint/ach_by_portal/headers" }),
  "PUT /operational-webhook/endpoint/[endpoint_id]/headers": () => ({ path: "/operational-webhook/endpoint/ach_by_portal/headers", body: { headers: {} } }),
  ...Object.fromEntries(
    ["app", "event-type", "auth", "background-task", "operational-webhook"].flatMap((folder) =>
      ["GET", "POST", "PUT", "PATCH", "DELETE"].map((m) => [`${m} /${folder}/[...rest]`, () => ({ path: `/${folder}/x/no-such-route` })]),
    ),
  ),
};

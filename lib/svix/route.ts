import { withApi, type ApiHandler, type RouteAccess, type RouteDoc, type RouteHandler } from "../http/api-route";
import { otherMethods, type HttpMethod } from "../http/methods";
import { svixErrorResponse } from "./errors";
import { idempotent } from "./idempotency";

/** The OpenAPI tag of every operation of the Svix-compatible surface. */
export const SVIX_TAG = "Svix";

/**
 * A route of the Svix-compatible surface (docs/svix.md): our API's wrapper — the same credentials
 * (an API key, or a portal session's `ps_` token for its own application), limits and access
 * rules — with Svix's error shape, and every POST idempotent by its `Idempotency-Key`. Its OpenAPI
 * operation is tagged Svix and documents Svix's error shape.
 */
export function svixRoute(handler: ApiHandler, contract: RouteAccess & { doc: Omit<RouteDoc, "tag" | "errorFormat"> | null }): RouteHandler {
  const doc: RouteDoc | null = contract.doc && { ...contract.doc, tag: SVIX_TAG, errorFormat: "svix" };
  return withApi(
    async (args) => {
      const key = args.req.method === "POST" ? args.req.headers.get("idempotency-key") : null;
      return key ? idempotent(args.ctx, args.req, key, () => handler(args)) : handler(args);
    },
    { ...contract, doc },
    { errors: svixErrorResponse },
  );
}

/** What a browser's Svix SDK sends beyond a simple request (svix-react's hooks, with a portal token). */
const SVIX_PREFLIGHT = {
  methods: "GET, POST, PUT, PATCH, DELETE",
  headers: "authorization, content-type, idempotency-key, svix-req-id, svix-retry-count, user-agent",
};

/** otherMethods for a Svix route: its 405 in Svix's shape, and the preflight its SDK needs. */
export function svixMethods<T extends Partial<Record<HttpMethod, RouteHandler>>>(implemented: T) {
  return otherMethods(implemented, { errors: svixErrorResponse, preflight: SVIX_PREFLIGHT });
}

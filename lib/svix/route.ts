import { withApi, type ApiHandler, type RouteAccess, type RouteDoc, type RouteHandler } from "../http/api-route";
import { otherMethods, type HttpMethod } from "../http/methods";
import { svixErrorResponse } from "./errors";
import { idempotent } from "./idempotency";

/** The OpenAPI tag of every operation of the Svix-compatible surface. */
export const SVIX_TAG = "Svix";

/**
 * A route of the Svix-compatible surface (docs/svix.md): our API's wrapper — the same credentials
 * (an API key, or a portal session's `ps_` token for its own application; the Svix API's own
 * app-portal token only here), limits and access rules — with Svix's error shape, and every POST
 * idempotent by its `Idempotency-Key`. Its OpenAPI operation is tagged Svix and documents Svix's
 * error shape. `mintsCredentials`: the answer holds live credentials, which are not kept (below).
 */
export function svixRoute(
  handler: ApiHandler,
  contract: RouteAccess & { doc: Omit<RouteDoc, "tag" | "errorFormat"> | null },
  options: { mintsCredentials?: true } = {},
): RouteHandler {
  const doc: RouteDoc | null = contract.doc && { ...contract.doc, tag: SVIX_TAG, errorFormat: "svix" };
  return withApi(
    async (args) => {
      const key = args.req.method === "POST" ? args.req.headers.get("idempotency-key") : null;
      if (!key) return handler(args);
      return options.mintsCredentials ? mintingAnewOnReplay(args, key, handler) : idempotent(args.ctx, args.req, key, () => handler(args));
    },
    { ...contract, doc },
    { errors: svixErrorResponse, surface: "svix" },
  );
}

/** What is kept for an answer holding live credentials, in their place. */
const MINTED_ANEW = JSON.stringify({ kept: "minted anew on replay" });

/**
 * Idempotency for an answer that holds live credentials (appPortalAccess's token and link): the
 * kept answer is only a marker, never the credentials in clear for IDEMPOTENCY_TTL, and a replay
 * answers again with credentials of its own (the SDK's retry sends the same body).
 */
async function mintingAnewOnReplay(args: Parameters<ApiHandler>[0], key: string, handler: ApiHandler): Promise<Response> {
  let fresh: Response | undefined;
  await idempotent(args.ctx, args.req, key, async () => {
    fresh = await handler(args);
    return fresh.ok ? new Response(MINTED_ANEW, { status: fresh.status, headers: { "content-type": "application/json" } }) : fresh;
  });
  if (fresh) return fresh;
  const again = await handler(args);
  again.headers.set("idempotent-replayed", "true");
  return again;
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

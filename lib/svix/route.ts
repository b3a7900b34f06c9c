import type { z } from "zod";
import type { Ctx } from "../context";
import { withApi, type ApiHandler, type DocumentedAnswer, type DocumentedRoute, type RouteAccess, type RouteDoc, type RouteHandler } from "../http/api-route";
import { otherMethods, type HttpMethod } from "../http/methods";
import { ignoreBody } from "../http/request";
import { NotImplementedError, svixErrorResponse } from "./errors";
import { idempotent } from "./idempotency";
import { parseSvixBody } from "./request";
import { unservedRequest } from "./unserved-operations";

/** The OpenAPI tag of every operation of the Svix-compatible surface. */
export const SVIX_TAG = "Svix";

type SvixHandler<B> = (args: Parameters<ApiHandler>[0] & { body: B }) => Promise<Response>;

type SvixDoc = Omit<RouteDoc, "tag" | "errorFormat">;
type SvixContract<S extends z.ZodType, D extends SvixDoc | null> = RouteAccess & {
  doc: D;
  /** A POST's body: read and checked before its Idempotency-Key is taken, and handed to the handler. None: whatever is sent is ignored. */
  body?: S;
  /** The most a POST's body may be (default 64 KiB). */
  bodyLimit?: (ctx: Ctx) => number;
  /** The answer holds live credentials, which are not kept (mintingAnewOnReplay). */
  mintsCredentials?: true;
};

/**
 * A route of the Svix-compatible surface (docs/svix.md): our API's wrapper — the same credentials
 * (an API key, or a portal session's `ps_` token for its own application; the Svix API's own
 * app-portal token only here), limits and access rules — with Svix's error shape, and every POST
 * idempotent by its `Idempotency-Key`. A POST's body is read whole and checked before the key is
 * taken, so a body that never finishes (or is refused) never holds the key its duplicates wait on.
 * Its OpenAPI operation is tagged Svix and documents Svix's error shape.
 */
export function svixRoute<S extends z.ZodType = z.ZodUndefined, D extends SvixDoc | null = SvixDoc | null>(
  handler: SvixHandler<z.infer<S>>,
  contract: SvixContract<S, D>,
): DocumentedRoute<DocumentedAnswer<D>> {
  const { body: schema, bodyLimit, mintsCredentials, ...access } = contract;
  const doc: RouteDoc | null = access.doc && { ...access.doc, tag: SVIX_TAG, errorFormat: "svix" };
  const route = withApi(
    async (args) => {
      if (args.req.method !== "POST") return handler({ ...args, body: undefined as z.infer<S> });
      const maxBytes = bodyLimit?.(args.ctx);
      const body = (schema ? await parseSvixBody(args.req, schema, maxBytes) : await ignoreBody(args.req, maxBytes)) as z.infer<S>;
      const run = () => handler({ ...args, body });
      const key = args.req.headers.get("idempotency-key");
      if (!key) return run();
      return mintsCredentials ? mintingAnewOnReplay(args.ctx, args.req, key, run) : idempotent(args.ctx, args.req, key, run);
    },
    { ...access, doc },
    { errors: svixErrorResponse, surface: "svix" },
  );
  return route as RouteHandler as DocumentedRoute<DocumentedAnswer<D>>;
}

/** What is kept for an answer holding live credentials, in their place. */
const MINTED_ANEW = JSON.stringify({ kept: "minted anew on replay" });

/**
 * Idempotency for an answer that holds live credentials (appPortalAccess's token and link): the
 * kept answer is only a marker, never the credentials in clear for IDEMPOTENCY_TTL, and a replay
 * answers again with credentials of its own (the SDK's retry sends the same body).
 */
async function mintingAnewOnReplay(ctx: Ctx, req: Request, key: string, run: () => Promise<Response>): Promise<Response> {
  let fresh: Response | undefined;
  await idempotent(ctx, req, key, async () => {
    fresh = await run();
    return fresh.ok ? new Response(MINTED_ANEW, { status: fresh.status, headers: { "content-type": "application/json" } }) : fresh;
  });
  if (fresh) return fresh;
  const again = await run();
  again.headers.set("idempotent-replayed", "true");
  return again;
}

/** What a browser's Svix SDK sends beyond a simple request (svix-react's hooks, with a portal token). */
const SVIX_PREFLIGHT = {
  methods: "GET, POST, PUT, PATCH, DELETE",
  headers: "authorization, content-type, idempotency-key, svix-req-id, svix-retry-count, user-agent",
};

/**
 * otherMethods for a Svix route: its 405 in Svix's shape — or 501 where Svix's document has an
 * operation this path's route does not serve (`POST /app/{app}/msg/search` reaches the route of
 * `/app/{app}/msg/{msg_id}`) — and the preflight its SDK needs.
 */
export function svixMethods<T extends Partial<Record<HttpMethod, RouteHandler>>>(implemented: T) {
  const instead = (req: Request) => {
    const unserved = unservedRequest(req);
    return unserved && new NotImplementedError(unserved);
  };
  return otherMethods(implemented, { errors: svixErrorResponse, preflight: SVIX_PREFLIGHT, instead });
}

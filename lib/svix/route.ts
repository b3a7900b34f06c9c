import type { z } from "zod";
import type { Ctx } from "../context";
import { withApi, type ApiHandler, type RouteAccess, type RouteDoc, type RouteHandler } from "../http/api-route";
import { otherMethods, type HttpMethod } from "../http/methods";
import { ignoreBody } from "../http/request";
import { svixErrorResponse } from "./errors";
import { idempotent } from "./idempotency";
import { parseSvixBody } from "./request";

/** The OpenAPI tag of every operation of the Svix-compatible surface. */
export const SVIX_TAG = "Svix";

type SvixHandler<B> = (args: Parameters<ApiHandler>[0] & { body: B }) => Promise<Response>;

type SvixContract<S extends z.ZodType> = RouteAccess & {
  doc: Omit<RouteDoc, "tag" | "errorFormat"> | null;
  /** A POST's body: read and checked before its Idempotency-Key is taken, and handed to the handler. None: whatever is sent is ignored. */
  body?: S;
  /** The most a POST's body may be (default 64 KiB). */
  bodyLimit?: (ctx: Ctx) => number;
};

/**
 * A route of the Svix-compatible surface (docs/svix.md): our API's wrapper — the same credentials
 * (an API key, or a portal session's `ps_` token for its own application), limits and access
 * rules — with Svix's error shape, and every POST idempotent by its `Idempotency-Key`. A POST's
 * body is read whole and checked before the key is taken, so a body that never finishes (or is
 * refused) never holds the key its duplicates wait on. Its OpenAPI operation is tagged Svix and
 * documents Svix's error shape.
 */
export function svixRoute<S extends z.ZodType = z.ZodUndefined>(handler: SvixHandler<z.infer<S>>, contract: SvixContract<S>): RouteHandler {
  const { body: schema, bodyLimit, ...access } = contract;
  const doc: RouteDoc | null = access.doc && { ...access.doc, tag: SVIX_TAG, errorFormat: "svix" };
  return withApi(
    async (args) => {
      if (args.req.method !== "POST") return handler({ ...args, body: undefined as z.infer<S> });
      const maxBytes = bodyLimit?.(args.ctx);
      const body = (schema ? await parseSvixBody(args.req, schema, maxBytes) : await ignoreBody(args.req, maxBytes)) as z.infer<S>;
      const key = args.req.headers.get("idempotency-key");
      return key ? idempotent(args.ctx, args.req, key, () => handler({ ...args, body })) : handler({ ...args, body });
    },
    { ...access, doc },
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

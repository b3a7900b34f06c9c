import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { openCtx, systemCtx } from "../open-ctx";
import { authenticateApiKey } from "../api-keys";
import { assertSameOrigin, hasSessionCookie, operatorFromSession } from "../auth/request-session";
import type { Actor, Ctx } from "../context";
import { sha256Hex } from "../crypto/encryption";
import { ForbiddenError, NotFoundError, RateLimitedError, UnauthorizedError } from "../errors";
import { isStorableText } from "../schemas";
import { authenticatePortalSession } from "../portal/authenticate-portal-session";
import { portalCorsHeaders, withCors } from "../portal/cors";
import { authFailures, failureBucket } from "../request-limits/auth-failures";
import { clientAddress } from "../request-limits/client-address";
import { errorResponse } from "./problem";
import { recordAuthFailure } from "../metrics/web";
import { noteActor, requestScope } from "../logging/request-scope";
import { served } from "./served";
import { RateLimiter } from "../request-limits/rate-limit";
import { declareRoute, type RouteAccess, type RouteDoc } from "./route-contract";
import { checkAnswer } from "./answer-contract";
import type { Page } from "../pagination";

export type { RouteAccess, RouteDoc } from "./route-contract";

type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> };
export type ApiHandler = (args: { req: Request; params: Record<string, string>; ctx: Ctx }) => Promise<Response>;
export type RouteHandler = (req: Request, route: RouteContext) => Promise<Response>;
export type ErrorRenderer = (error: unknown, requestId: string) => Response | Promise<Response>;
/** Which API a route belongs to: ours, or the Svix-compatible one (lib/svix/route.ts). */
type Surface = "api" | "svix";

let limiter: RateLimiter | undefined;


declare const ANSWER: unique symbol;
/**
 * A route handler whose type carries what its operation documents it answers (a phantom field,
 * never set): the dashboard's and the portal's client (components/shared/api.ts) is typed by the
 * route it calls, from the same zod objects the answers are checked with.
 */
export type DocumentedRoute<A> = RouteHandler & { readonly [ANSWER]: A };
type SuccessAnswer<S> = S extends { schema: infer Z extends z.ZodType } ? (S extends { list: true } ? Page<z.output<Z>> : z.output<Z>) : unknown;
/** The answers an operation documents: its success and its `also`, parsed from JSON. */
export type DocumentedAnswer<D> = D extends { success: infer S }
  ? SuccessAnswer<S> | (D extends { also: readonly (infer A)[] } ? SuccessAnswer<A> : never)
  : unknown;
/** What a documented route answers; never for one that is not (a 405 stand-in). */
export type AnswerOf<H> = H extends { readonly [ANSWER]: infer A } ? A : never;

const READS = new Set(["GET", "HEAD"]);

// A body the route did not read would be drained by the server after the answer, however large:
// the connection closes instead.
function closeIfBodyUnread(req: Request, response: Response): Response {
  const declared = req.headers.has("transfer-encoding") || Number(req.headers.get("content-length") ?? 0) > 0;
  if (declared && !req.bodyUsed) response.headers.set("connection", "close");
  return response;
}

/** Refuses the actor what the route's contract does not give it, before the handler runs. */
function requireAccess(actor: Exclude<Actor, { type: "system" }>, access: RouteAccess, method: string, surface: Surface): void {
  if ((access.role === "own" || access.apiKey === false) && actor.type !== "operator") {
    throw new ForbiddenError("Only an operator's dashboard session may use this route.");
  }
  if (actor.type === "operator" && actor.mustEnroll && access.role !== "own") {
    throw new ForbiddenError("A second factor is required of every operator: enroll one first (your account's page).", "two_factor_enrollment_required");
  }
  if (access.role === "own") return;
  if (actor.type === "portal") {
    // The Svix API's bearer token is its application's, for the Svix SDK and svix-react: our own
    // surface (/consumers, /endpoints…) is not its to use, even where a portal session may.
    if (actor.svix === "token" && surface !== "svix") {
      throw new ForbiddenError("A Svix app-portal token is for the Svix routes of its application only (/api/v1/app/{app_id}/…).");
    }
    if (access.portal === false) throw new ForbiddenError("A portal session cannot use this route.");
    if (access.portal !== "scoped" && !actor.capabilities.includes(access.portal)) {
      throw new ForbiddenError(`This portal session lacks the \`${access.portal}\` capability.`);
    }
  } else if (actor.type === "operator" && actor.role !== "admin") {
    // A change is never a read, whatever a route declares.
    if (access.role === "admin") throw new ForbiddenError("Only an admin may use this route.");
    if (access.role === "write" || !READS.has(method)) throw new ForbiddenError("Your operator role is viewer: it can read, but not change anything.");
  }
}

/**
 * The REST API's one wrapper, with the route's contract beside it: a bearer API key or portal
 * session (with a bound on failed authentications per client, or per token where the client is
 * unknown: over it, 429 with no lookup unless the token authenticated here before), or else an
 * operator's dashboard session cookie (same-origin changes only); a rate limit per credential; what the actor may not do (`access`) refused before
 * the handler runs; errors as problem+json. Outermost, served() (./served.ts) gives the request its
 * id (X-Request-Id, `request_id`, `req_id` on its log lines), its access line, metrics and span.
 */
export function withApi<D extends RouteDoc | null>(
  handler: ApiHandler,
  contract: RouteAccess & { doc: D },
  /** How errors are answered: problem+json, or another surface's shape (the Svix API's, lib/svix); and whose surface the route is. */
  options: { errors?: ErrorRenderer; surface?: Surface } = {},
): DocumentedRoute<DocumentedAnswer<D>> {
  const render = options.errors ?? errorResponse;
  const surface = options.surface ?? "api";
  // Tests and development parse every 2xx answer with the schema its route documents
  // (./answer-contract.ts: a mismatch is a 500 `response_contract_violated`, the differences in the
  // log); production never does, decided once per route, so its hot routes (the lean ingest,
  // ./lean-routes.ts) pay nothing for it.
  const checked = process.env.NODE_ENV !== "production" ? contract.doc : null;
  const answer: RouteHandler = async (req, route) => {
    // The request's scope is served()'s, outermost (its id also in its log lines and access line).
    const requestId = requestScope()?.id ?? randomUUID();
    const header = req.headers.get("authorization") ?? "";
    const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
    const portal = token?.startsWith("ps_") ?? false;
    const cors = portal ? portalCorsHeaders(req) : {};
    try {
      // Who is asking is looked up by the system; the handler then acts as them.
      const system = systemCtx();
      const { config } = system;
      let actor: Exclude<Actor, { type: "system" }>;
      if (!token && hasSessionCookie(req)) {
        const operator = await operatorFromSession(req, system);
        if (!operator) throw authFailure(new UnauthorizedError("The dashboard session has ended; sign in again."));
        if (!READS.has(req.method)) assertSameOrigin(req);
        actor = operator;
      } else {
        if (!token) throw authFailure(new UnauthorizedError());
        const tokenHash = sha256Hex(token);
        const bucket = failureBucket(clientAddress(req, config.TRUST_PROXY), tokenHash);
        const failed = authFailures(config);
        // Refused before any database work: that is what the limit is for.
        const blocked = failed.retryAfter(bucket, tokenHash);
        if (blocked > 0) throw authFailure(new RateLimitedError(blocked));
        const found: typeof actor | null = portal
          ? await authenticatePortalSession({ ctx: system, token })
          : await authenticateApiKey({ ctx: system, token }).then((key) => (key ? { type: "api_key", id: key.id } : null));
        if (!found) {
          failed.failed(bucket, tokenHash);
          throw authFailure(new UnauthorizedError(portal ? "The portal session is unknown, ended or expired." : "The API key is unknown or revoked."));
        }
        failed.succeeded(tokenHash);
        actor = found;
      }
      noteActor(actor.type);
      requireAccess(actor, contract, req.method, surface);
      limiter ??= new RateLimiter(config.API_RATE_LIMIT_PER_SECOND);
      const wait = limiter.take(actor.id);
      if (wait > 0) throw new RateLimitedError(wait);
      const params = Object.fromEntries(
        Object.entries((await route?.params) ?? {}).map(([k, v]) => [k, Array.isArray(v) ? v.join("/") : (v ?? "")]),
      );
      // Ids, uids and names are storable text, so a path naming something else names nothing
      // (and would only fail in the database).
      if (!Object.values(params).every(isStorableText)) throw new NotFoundError("resource");
      const response = await handler({ req, params, ctx: openCtx(actor) });
      if (checked) await checkAnswer(checked, response, requestId);
      response.headers.set("x-request-id", requestId);
      // An answer is one credential's: signing secrets, API keys, portal links and tokens must
      // never sit in a shared or browser cache, so none does unless its route says otherwise.
      if (!response.headers.has("cache-control")) response.headers.set("cache-control", "no-store");
      return withCors(closeIfBodyUnread(req, response), cors);
    } catch (error) {
      // To a customer, another consumer's object and a missing one read the same, naming nothing.
      const answer = portal && error instanceof NotFoundError ? new NotFoundError(error.what) : error;
      return withCors(closeIfBodyUnread(req, await render(answer, requestId)), cors);
    }
  };
  return declareRoute(served(answer), surface === "svix" ? { ...contract, surface } : contract) as DocumentedRoute<DocumentedAnswer<D>>;
}

/** Counts a refused credential (webhook_admin_auth_failures_total) on its way to the client. */
function authFailure<E extends Error>(error: E): E {
  recordAuthFailure();
  return error;
}

/** A route that takes no credential of ours (this document; the portal link's one-time token is its own). */
export function publicRoute<D extends RouteDoc>(handler: (req: Request, route: RouteContext) => Response | Promise<Response>, doc: D): DocumentedRoute<DocumentedAnswer<D>> {
  return declareRoute(
    served(async (req, route) => handler(req, route)),
    { public: true, doc: { ...doc, public: true } },
  ) as DocumentedRoute<DocumentedAnswer<D>>;
}

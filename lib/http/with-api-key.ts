import { randomUUID } from "node:crypto";
import { authenticateApiKey } from "../api-keys";
import { assertSameOrigin, hasSessionCookie, operatorFromSession } from "../auth/request-session";
import { getConfig } from "../config";
import { requireWrite, type Actor, type Ctx } from "../context";
import { sha256Hex } from "../crypto/encryption";
import { getDb } from "../db/client";
import { NotFoundError, RateLimitedError, UnauthorizedError } from "../errors";
import { isStorableText } from "../schemas";
import { authenticatePortalSession } from "../portal/authenticate-portal-session";
import { portalCorsHeaders, withCors } from "../portal/cors";
import { requirePortalAccess } from "../portal/policy";
import { ActiveCredentials } from "./active-credentials";
import { authFailures } from "./auth-failures";
import { clientAddress } from "./client-address";
import { errorResponse } from "./problem";
import { RateLimiter } from "./rate-limit";

type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> };
export type ApiHandler = (args: { req: Request; params: Record<string, string>; ctx: Ctx }) => Promise<Response>;

let limiter: RateLimiter | undefined;
const active = new ActiveCredentials();

const READS = new Set(["GET", "HEAD"]);

// A body the route did not read would be drained by the server after the answer, however large:
// the connection closes instead.
function closeIfBodyUnread(req: Request, response: Response): Response {
  const declared = req.headers.has("transfer-encoding") || Number(req.headers.get("content-length") ?? 0) > 0;
  if (declared && !req.bodyUsed) response.headers.set("connection", "close");
  return response;
}

/**
 * The REST API's one auth wrapper: a bearer API key or portal session (with a bound on failed
 * authentications per client: over it, only a token among the active credentials is looked up), or else an operator's
 * dashboard session cookie (same-origin changes only); a rate limit per credential; a viewer's
 * changes and a portal session's routes (lib/portal/policy.ts) refused before any handler runs;
 * errors as problem+json.
 */
export function withApiKey(handler: ApiHandler) {
  return async (req: Request, route: RouteContext): Promise<Response> => {
    const requestId = randomUUID();
    const header = req.headers.get("authorization") ?? "";
    const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
    const portal = token?.startsWith("ps_") ?? false;
    const cors = portal ? portalCorsHeaders(req) : {};
    try {
      const config = getConfig();
      const db = getDb();
      let actor: Exclude<Actor, { type: "system" }>;
      if (!token && hasSessionCookie(req)) {
        const operator = await operatorFromSession(req, db);
        if (!operator) throw new UnauthorizedError("The dashboard session has ended; sign in again.");
        if (!READS.has(req.method)) assertSameOrigin(req);
        actor = operator;
      } else {
        if (!token) throw new UnauthorizedError();
        const client = clientAddress(req, config.TRUST_PROXY);
        const tokenHash = sha256Hex(token);
        const failed = authFailures(config);
        const blocked = failed.retryAfter(client, tokenHash);
        if (blocked > 0 && !(await active.has(db, tokenHash))) throw new RateLimitedError(blocked);
        const found: typeof actor | null = portal
          ? await authenticatePortalSession(db, token)
          : await authenticateApiKey(db, token).then((key) => (key ? { type: "api_key", id: key.id } : null));
        if (!found) {
          failed.failed(client, tokenHash);
          active.forget(tokenHash);
          throw new UnauthorizedError(portal ? "The portal session is unknown, ended or expired." : "The API key is unknown or revoked.");
        }
        failed.succeeded(tokenHash);
        actor = found;
        if (actor.type === "portal") requirePortalAccess(actor, req.method, new URL(req.url).pathname);
      }
      limiter ??= new RateLimiter(config.API_RATE_LIMIT_PER_SECOND);
      const wait = limiter.take(actor.id);
      if (wait > 0) throw new RateLimitedError(wait);
      const ctx: Ctx = { actor, db };
      if (!READS.has(req.method)) requireWrite(ctx);
      const params = Object.fromEntries(
        Object.entries((await route?.params) ?? {}).map(([k, v]) => [k, Array.isArray(v) ? v.join("/") : (v ?? "")]),
      );
      // Ids, uids and names are storable text, so a path naming something else names nothing
      // (and would only fail in the database).
      if (!Object.values(params).every(isStorableText)) throw new NotFoundError("resource");
      const response = await handler({ req, params, ctx });
      response.headers.set("x-request-id", requestId);
      return withCors(closeIfBodyUnread(req, response), cors);
    } catch (error) {
      // To a customer, another consumer's object and a missing one read the same, naming nothing.
      const answer = portal && error instanceof NotFoundError ? new NotFoundError(error.what) : error;
      return withCors(closeIfBodyUnread(req, errorResponse(answer, requestId)), cors);
    }
  };
}

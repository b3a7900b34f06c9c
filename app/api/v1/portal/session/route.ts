import { otherMethods } from "@/lib/http/methods";
import { systemCtx } from "@/lib/open-ctx";
import { clientAddress } from "@/lib/request-limits/client-address";
import { json, noContent, parseBody } from "@/lib/http/request";
import { errorResponse } from "@/lib/http/problem";
import { publicRoute, withApi } from "@/lib/http/api-route";
import { ExchangePortalTokenInput, endPortalSession, exchangePortalToken, portalCorsHeaders, withCors } from "@/lib/portal";

// The exchange is the one route without a credential: the link's one-time token is the credential.
export const POST = publicRoute(
  async (req: Request): Promise<Response> => {
    const cors = portalCorsHeaders(req);
    try {
      const { token } = await parseBody(req, ExchangePortalTokenInput);
      const ctx = systemCtx();
      const client = clientAddress(req, ctx.config.TRUST_PROXY);
      return withCors(json(await exchangePortalToken({ ctx, input: { token, client } }), 201, { "cache-control": "no-store" }), cors);
    } catch (error) {
      return withCors(errorResponse(error), cors);
    }
  },
  {
    operationId: "exchangePortalToken",
    summary: "Exchange a portal link's token for a session",
    description: "No API key. A used, expired or unknown token is 401 `invalid_token`.",
    tag: "Portal",
    body: { schema: ExchangePortalTokenInput },
    success: { status: 201, description: "`{session_token, consumer_id, capabilities, may_rotate_secrets, locale, theme, expires_at}`: `may_rotate_secrets` says whether the session may rotate signing secrets (a link made by the Svix API with only ViewEndpointSecret reads them and may not)." },
    errors: { 429: "`rate_limited`: this client's failed authentications (where the client is unknown, this token's) are over `API_AUTH_FAILURES_PER_MINUTE`; nothing was looked up." },
  },
);

export const DELETE = withApi(async ({ ctx }) => {
  await endPortalSession({ ctx });
  return noContent();
}, {
  portal: "scoped",
  role: "write",
  doc: {
    operationId: "endPortalSession",
    summary: "End this portal session",
    description: "With the session's own `Authorization: Bearer ps_…`.",
    tag: "Portal",
    success: { status: 204, description: "Ended." },
  },
});

export const { GET, PUT, PATCH, OPTIONS } = otherMethods({ POST, DELETE });

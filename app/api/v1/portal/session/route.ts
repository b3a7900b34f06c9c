import { otherMethods } from "@/lib/http/methods";
import { randomUUID } from "node:crypto";
import { getConfig } from "@/lib/config";
import { clientAddress } from "@/lib/http/client-address";
import { json, noContent, parseBody } from "@/lib/http/request";
import { errorResponse } from "@/lib/http/problem";
import { withApiKey } from "@/lib/http/with-api-key";
import { ExchangePortalTokenInput, endPortalSession, exchangePortalToken, portalCorsHeaders, withCors } from "@/lib/portal";

// The exchange is the one route without a credential: the link's one-time token is the credential.
export async function POST(req: Request): Promise<Response> {
  const cors = portalCorsHeaders(req);
  try {
    const { token } = await parseBody(req, ExchangePortalTokenInput);
    const client = clientAddress(req, getConfig().TRUST_PROXY);
    return withCors(json(await exchangePortalToken(token, client), 201, { "cache-control": "no-store" }), cors);
  } catch (error) {
    return withCors(errorResponse(error, randomUUID()), cors);
  }
}

export const DELETE = withApiKey(async ({ ctx }) => {
  await endPortalSession(ctx);
  return noContent();
});

export const { GET, PUT, PATCH, OPTIONS } = otherMethods({ POST, DELETE });

import { otherMethods } from "@/lib/http/methods";
import { errorResponse } from "@/lib/http/problem";
import { json, parseQuery } from "@/lib/http/request";
import { publicRoute } from "@/lib/http/api-route";
import { systemCtx } from "@/lib/open-ctx";
import { ENDPOINT } from "@/lib/openapi/params";
import { PollPage, PollQuery, pollEndpoint } from "@/lib/polling";
import { clientAddress } from "@/lib/request-limits/client-address";

// The poll token is the credential (no API key): the verb checks it against the endpoint in the path.
export const GET = publicRoute(
  async (req: Request, route): Promise<Response> => {
    try {
      const { id } = (await route.params) as { id: string };
      const { cursor, limit } = parseQuery(req, PollQuery);
      const token = /^Bearer\s+(\S+)$/i.exec(req.headers.get("authorization") ?? "")?.[1] ?? "";
      const ctx = systemCtx();
      const client = clientAddress(req, ctx.config.TRUST_PROXY);
      return json(await pollEndpoint({ ctx, ref: id, token, client, cursor, limit, signal: req.signal }), 200, { "cache-control": "no-store" });
    } catch (error) {
      return errorResponse(error);
    }
  },
  {
    operationId: "pollEndpoint",
    pollToken: true,
    summary: "Read a polling endpoint's next messages",
    description:
      "With one of the endpoint's poll tokens (`Authorization: Bearer ept_…`; no API key). The endpoint's messages after `cursor` (none: from the endpoint's creation, or the oldest message kept), oldest first, each with the Standard Webhooks headers an HTTP delivery of it would carry, and the `cursor` that starts the next page; `done` when nothing more is there now. An empty page waits up to `POLL_WAIT` (30 s) for messages. Messages given past the endpoint's committed position count as delivered: the attempt log shows them as `polled`.",
    tag: "Polling",
    params: ENDPOINT,
    query: PollQuery,
    success: { status: 200, description: "A page of messages.", schema: PollPage },
    errors: {
      400: "`invalid_cursor`: the cursor is not one a poll answered.",
      401: "`unauthorized`: the poll token is unknown or revoked.",
      404: "`not_found`: no such endpoint — or not the token's own endpoint.",
      409: "`endpoint_disabled`: the endpoint is disabled.",
      410: "`cursor_expired`: the cursor points before the oldest message kept (`RETENTION_PERIOD`).",
      429: "`rate_limited`: this client's failed authentications are over `API_AUTH_FAILURES_PER_MINUTE`.",
    },
  },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });

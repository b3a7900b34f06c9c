import type { Operation, SchemaEntry } from "../openapi/operation";
import { input } from "../openapi/operation";
import { CreatePortalLinkInput, ExchangePortalTokenInput } from "./schemas";

const CONSUMER = { consumer: "The consumer's id (`con_…`) or its `uid`." };

// This domain's part of the OpenAPI document, merged by lib/openapi/document.ts.
export const portalTag = {
  name: "Portal",
  description: "One-time links into the customer portal, and the consumer-scoped `ps_` sessions (Bearer ps_…) they are exchanged for.",
} as const;

export const portalSchemas: Record<string, SchemaEntry> = {
  CreatePortalLinkInput: input(CreatePortalLinkInput),
  ExchangePortalTokenInput: input(ExchangePortalTokenInput),
};

export const portalOperations: Operation[] = [
  {
    method: "post",
    path: "/consumers/{consumer}/portal-links",
    operationId: "createPortalLink",
    summary: "Mint a one-time portal link",
    description: "Answers `{url, expires_at}`; the url carries a one-time `pt_` token in its fragment (`…/portal#token=pt_…`).",
    tag: portalTag.name,
    params: CONSUMER,
    body: { schema: "CreatePortalLinkInput", required: false },
    success: { status: 201, description: "`{url, expires_at}`." },
  },
  {
    method: "delete",
    path: "/consumers/{consumer}/portal-sessions",
    operationId: "endConsumerPortalSessions",
    summary: "End every portal session of a consumer",
    tag: portalTag.name,
    params: CONSUMER,
    success: { status: 204, description: "Ended." },
  },
  {
    method: "post",
    path: "/portal/session",
    operationId: "exchangePortalToken",
    summary: "Exchange a portal link's token for a session",
    description: "No API key. A used, expired or unknown token is 401 `invalid_token`.",
    tag: portalTag.name,
    public: true,
    body: { schema: "ExchangePortalTokenInput" },
    success: { status: 201, description: "`{session_token, consumer_id, capabilities, locale, theme, expires_at}`." },
    errors: { 429: "`rate_limited`: this client's failed authentications are over `API_AUTH_FAILURES_PER_MINUTE`; nothing was looked up." },
  },
  {
    method: "delete",
    path: "/portal/session",
    operationId: "endPortalSession",
    summary: "End this portal session",
    description: "With the session's own `Authorization: Bearer ps_…`.",
    tag: portalTag.name,
    success: { status: 204, description: "Ended." },
  },
];

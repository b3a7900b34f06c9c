export { authenticatePortalSession, type PortalActor } from "./authenticate-portal-session";
export { createPortalLink } from "./create-portal-link";
export { endConsumerPortalSessions, endPortalSession } from "./end-portal-sessions";
export { exchangePortalToken, InvalidPortalTokenError } from "./exchange-portal-token";
export { portalCorsHeaders, portalPreflight, withCors } from "./cors";
export { CreatePortalLinkInput, ExchangePortalTokenInput, type PortalSessionAnswer } from "./schemas";

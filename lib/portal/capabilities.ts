/**
 * What a portal link may grant its session, beyond reading its own consumer. Declared once: the
 * schema, the API's validation, the route contracts and the portal's screens all read it from here.
 */
export const PORTAL_CAPABILITIES = ["manage_endpoints", "view_secrets", "resend", "recover"] as const;
export type PortalCapability = (typeof PORTAL_CAPABILITIES)[number];

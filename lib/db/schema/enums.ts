/*
 * The value lists some text columns hold, beside their tables (alerts.ts, access.ts) as the schema
 * owns them: the domains read them from here, never the schema from a domain. Pure, without
 * drizzle, so the browser may import them too — through the domain modules that re-export them
 * (lib/alerts/kinds.ts, lib/portal/capabilities.ts), as UI code never imports lib/db itself.
 */

/** Who acts (audit_events.actor_type): the kinds of ctx.actor, lib/context.ts. */
export const ACTOR_TYPES = ["api_key", "operator", "portal", "system"] as const;
export type ActorType = (typeof ACTOR_TYPES)[number];

/** The kinds of alert channel: alert_channels.kind, and the dashboard's channel form. */
export const ALERT_CHANNEL_KINDS = ["slack", "teams", "chatwork", "email", "webhook"] as const;
export type AlertChannelKind = (typeof ALERT_CHANNEL_KINDS)[number];

/** The alert kinds (alerts.kind, with the test kind); also the `type` of the operational webhooks the webhook channel receives. */
export const ALERT_KINDS = [
  "endpoint.failing",
  "message.attempt.exhausted",
  "endpoint.disabled",
  "endpoint.recovered",
  "endpoint.enabled",
  "recovery.finished",
  "recovery.paused",
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/**
 * What a portal link may grant its session, beyond reading its own consumer (portal_tokens and
 * portal_sessions.capabilities): the API's validation, the route contracts and the portal's
 * screens read it too.
 */
export const PORTAL_CAPABILITIES = ["manage_endpoints", "view_secrets", "resend", "recover"] as const;
export type PortalCapability = (typeof PORTAL_CAPABILITIES)[number];

/**
 * What a route may ask of a portal session: a capability, or rotating signing secrets. Svix tells
 * reading a secret (ViewEndpointSecret) from rotating it (ManageEndpointSecret); our own links do
 * not, their `view_secrets` reads and rotates, so a session from one of them is given
 * `rotate_secrets` with it (sessionPermissions, lib/portal/capabilities.ts) and one from the Svix
 * API only when Svix's capabilities grant it (lib/svix/portal-access.ts).
 */
export type PortalPermission = PortalCapability | "rotate_secrets";

/**
 * What an event type's schema does to a message at ingest (event_types.enforcement): nothing; marks
 * it and lets it through (`warn`); refuses it (`reject`, 422 `payload_invalid`).
 */
export const SCHEMA_ENFORCEMENTS = ["off", "warn", "reject"] as const;
export type SchemaEnforcement = (typeof SCHEMA_ENFORCEMENTS)[number];

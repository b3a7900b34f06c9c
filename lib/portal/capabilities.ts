/**
 * What a portal link may grant its session, beyond reading its own consumer. Declared once: the
 * schema, the API's validation, the route contracts and the portal's screens all read it from here.
 */
export const PORTAL_CAPABILITIES = ["manage_endpoints", "view_secrets", "resend", "recover"] as const;
export type PortalCapability = (typeof PORTAL_CAPABILITIES)[number];

/**
 * What a route may ask of a portal session: a capability, or rotating signing secrets. Svix tells
 * reading a secret (ViewEndpointSecret) from rotating it (ManageEndpointSecret); our own links do
 * not, their `view_secrets` reads and rotates, so a session from one of them is given
 * `rotate_secrets` with it (sessionPermissions) and one from the Svix API only when Svix's
 * capabilities grant it (lib/svix/portal-access.ts).
 */
export type PortalPermission = PortalCapability | "rotate_secrets";

/** What a session may do: its stored capabilities, with `rotate_secrets` as our own links mean them. */
export function sessionPermissions(stored: readonly PortalPermission[], fromSvix: boolean): PortalPermission[] {
  if (fromSvix || !stored.includes("view_secrets") || stored.includes("rotate_secrets")) return [...stored];
  return [...stored, "rotate_secrets"];
}

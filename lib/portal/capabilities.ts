import type { PortalPermission } from "../db/schema/enums";

// The lists live beside their tables (lib/db/schema/enums.ts); re-exported for the portal's screens.
export { PORTAL_CAPABILITIES, type PortalCapability, type PortalPermission } from "../db/schema/enums";

/** What a session may do: its stored capabilities, with `rotate_secrets` as our own links mean them. */
export function sessionPermissions(stored: readonly PortalPermission[], fromSvix: boolean): PortalPermission[] {
  if (fromSvix || !stored.includes("view_secrets") || stored.includes("rotate_secrets")) return [...stored];
  return [...stored, "rotate_secrets"];
}

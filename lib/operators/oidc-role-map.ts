import { OPERATOR_ROLES, type OperatorRole } from "../db/schema/access";

/**
 * OIDC_ROLE_MAP: which role an identity provider's group grants. `group=role` entries, comma
 * separated (`admins=admin, /platform/ops=viewer, *=viewer`): a group's name is everything before
 * its entry's last `=` (so it may itself hold `=`, spaces or slashes; not a comma), trimmed; `*`
 * stands for anyone the provider signs in, whatever their groups.
 */
export type RoleMap = { entries: ReadonlyMap<string, OperatorRole>; anyone: OperatorRole | null };

/** Higher grants more: a person in several mapped groups gets the highest of their roles. */
const RANK: Record<OperatorRole, number> = { viewer: 0, admin: 1 };

/** The map, or the reason it is not one (said to the operator, after the setting's name). */
export function parseRoleMap(text: string): RoleMap | string {
  const entries = new Map<string, OperatorRole>();
  let anyone: OperatorRole | null = null;
  const parts = text.split(",").map((part) => part.trim()).filter(Boolean);
  if (parts.length === 0) return "must name at least one group, e.g. `admins=admin,*=viewer`";
  for (const part of parts) {
    const at = part.lastIndexOf("=");
    const group = part.slice(0, Math.max(at, 0)).trim();
    const role = part.slice(at + 1).trim();
    if (at < 0 || group === "") return `"${part}" is not group=role (e.g. admins=admin)`;
    if (!(OPERATOR_ROLES as readonly string[]).includes(role)) return `"${part}": the role must be one of ${OPERATOR_ROLES.join(", ")}`;
    if (group === "*" ? anyone !== null : entries.has(group)) return `"${group}" is mapped twice`;
    if (group === "*") anyone = role as OperatorRole;
    else entries.set(group, role as OperatorRole);
  }
  return { entries, anyone };
}

/**
 * The role a person's groups grant: the highest of their mapped groups' roles and `*`'s; null when
 * nothing maps (they are refused). A claim that is one string counts as one group.
 */
export function mapRole(map: RoleMap, claim: unknown): OperatorRole | null {
  const groups = Array.isArray(claim) ? claim.filter((g): g is string => typeof g === "string") : typeof claim === "string" ? [claim] : [];
  let best = map.anyone;
  for (const group of groups) {
    const role = map.entries.get(group);
    if (role && (best === null || RANK[role] > RANK[best])) best = role;
  }
  return best;
}

import { ConfigError, type Config } from "../config";
import { parseRoleMap, type RoleMap } from "../operators/oidc-role-map";

/** Single sign-on's settings, checked together; null when OIDC_ISSUER is not set. */
export type OidcSettings = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  label: string | undefined;
  autoCreate: boolean;
  roleClaim: string;
  roleMap: RoleMap | null;
};

const invalid = (setting: string, message: string) => new ConfigError(`Invalid configuration:\n  ${setting}: ${message}`);

/**
 * The settings single sign-on needs, or a ConfigError naming the one that is wrong — what stops
 * the start (scripts/start.ts, instrumentation.ts) before anyone reaches the sign-in page.
 */
export function oidcSettings(config: Config): OidcSettings | null {
  if (!config.OIDC_ISSUER) {
    if (!config.PASSWORD_SIGN_IN) throw invalid("PASSWORD_SIGN_IN", "false needs single sign-on (OIDC_ISSUER), or nobody could sign in");
    for (const name of ["OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET", "OIDC_ROLE_MAP"] as const) {
      if (config[name]) throw invalid(name, "is set but OIDC_ISSUER is not: set the issuer, or unset this");
    }
    if (config.OIDC_AUTO_CREATE) throw invalid("OIDC_AUTO_CREATE", "is true but OIDC_ISSUER is not: set the issuer, or unset this");
    return null;
  }
  if (!config.OIDC_CLIENT_ID) throw invalid("OIDC_CLIENT_ID", "required with OIDC_ISSUER: the client id the identity provider gave this app");
  if (!config.OIDC_CLIENT_SECRET) throw invalid("OIDC_CLIENT_SECRET", "required with OIDC_ISSUER: the client secret the identity provider gave this app");
  const roleMap = config.OIDC_ROLE_MAP === undefined ? null : parseRoleMap(config.OIDC_ROLE_MAP);
  if (typeof roleMap === "string") throw invalid("OIDC_ROLE_MAP", roleMap);
  if (config.OIDC_AUTO_CREATE && !roleMap) {
    throw invalid("OIDC_AUTO_CREATE", "true needs OIDC_ROLE_MAP, which gives a created operator a role (e.g. `admins=admin,*=viewer`)");
  }
  return {
    issuer: config.OIDC_ISSUER,
    clientId: config.OIDC_CLIENT_ID,
    clientSecret: config.OIDC_CLIENT_SECRET,
    label: config.OIDC_LABEL,
    autoCreate: config.OIDC_AUTO_CREATE,
    roleClaim: config.OIDC_ROLE_CLAIM,
    roleMap,
  };
}

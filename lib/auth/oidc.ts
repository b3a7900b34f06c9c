import { customFetch, type NextAuthConfig } from "next-auth";
import type { OIDCConfig } from "next-auth/providers";
import type { NextRequest } from "next/server";
import { getConfig } from "../config";
import { logger } from "../logger";
import { systemCtx } from "../open-ctx";
import { mapRole, OIDC_REFUSALS, signInWithOidc } from "../operators";
import { verifyIdToken } from "./oidc-issuer";
import { oidcSettings, type OidcSettings } from "./oidc-settings";

/** The provider's id: the identity provider returns to /api/auth/callback/oidc. */
export const OIDC_PROVIDER = "oidc";

/** Single sign-on's settings, or null when OIDC_ISSUER is not set (checked at start: a bad one never gets here). */
export const ssoSettings = (): OidcSettings | null => oidcSettings(getConfig());

/** Password sign-in (and its stand-in, the emailed link): off only where single sign-on is on. */
export const passwordSignInEnabled = () => getConfig().PASSWORD_SIGN_IN;

/**
 * Why a single sign-on was refused: the operator match's reasons, an ID token whose signature or
 * claims did not hold, or an OAuth callback Auth.js itself refused ("failed": a bad answer, a
 * replayed or missing state).
 */
export const SSO_REFUSALS = [...OIDC_REFUSALS, "invalid_token", "failed"] as const;
export type SsoRefusal = (typeof SSO_REFUSALS)[number];

/** Where a refused single sign-on lands: the sign-in page, which says why in words. */
export const ssoRefusedPath = (reason: SsoRefusal) => `/login?error=SsoRefused&reason=${reason}`;

/** Auth.js's errors that end an OAuth callback on the sign-in page (pages.error). */
const CALLBACK_ERRORS = ["Configuration", "OAuthCallbackError", "OAuthSignin", "AccessDenied", "OAuthAccountNotLinked"];

/** The refusal the sign-in page's `error` and `reason` say, or null when they say none. */
export function ssoRefusal(error: string | undefined, reason: string | undefined): SsoRefusal | null {
  if (error === "SsoRefused") return (SSO_REFUSALS as readonly string[]).includes(reason ?? "") ? (reason as SsoRefusal) : "failed";
  return CALLBACK_ERRORS.includes(error ?? "") ? "failed" : null;
}

type SignInCallback = NonNullable<NonNullable<NextAuthConfig["callbacks"]>["signIn"]>;

/**
 * The fetch Auth.js reaches the identity provider with. A GET (the discovery document, asked at
 * every sign-in) sent on a pooled keep-alive connection the provider closed at that moment fails
 * before any answer ("fetch failed"), and Auth.js would end the sign-in with "Configuration": a GET
 * asked once more, on a fresh connection, is safe. Anything else fails as it did.
 */
export async function idpFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(input, init);
  } catch (error) {
    const method = (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
    if (method !== "GET" || !(error instanceof TypeError) || init?.signal?.aborted) throw error;
    logger.warn("the identity provider's connection failed; asking once more", { error: error.message });
    return fetch(input, init);
  }
}

/**
 * Auth.js's generic OIDC provider: the issuer's discovery document, the authorization code flow
 * with PKCE, state and nonce (each in its own short-lived cookie, used once). Auth.js checks the
 * ID token's issuer, audience, expiry, nonce and algorithm's name; the signIn check below adds its
 * signature. The session's operator comes from the check, never from the profile.
 */
function provider(settings: OidcSettings): OIDCConfig<Record<string, unknown>> {
  return {
    id: OIDC_PROVIDER,
    name: settings.label ?? "Single sign-on",
    type: "oidc",
    issuer: settings.issuer,
    clientId: settings.clientId,
    clientSecret: settings.clientSecret,
    checks: ["pkce", "state", "nonce"],
    authorization: { params: { scope: "openid email profile" } },
    profile: (claims) => ({ id: String(claims.sub), email: typeof claims.email === "string" ? claims.email : null }),
    [customFetch]: idpFetch,
  };
}

/**
 * Admits the person the ID token names only when its signature holds (verifyIdToken) and
 * signInWithOidc finds, links or creates their operator; a refusal goes back to the sign-in page
 * with its reason. The operator's id goes on Auth.js's user, which the session is made from
 * (without an adapter it is this object; with one, the adapter's getUserByAccount finds the
 * operator just linked).
 */
const checkSso =
  (settings: OidcSettings): SignInCallback =>
  async ({ user, account }) => {
    if (account?.provider !== OIDC_PROVIDER) return true;
    let claims;
    try {
      if (!account.id_token) throw new Error("the token endpoint answered no ID token");
      claims = await verifyIdToken(settings, account.id_token);
    } catch (error) {
      logger.warn("single sign-on refused", { reason: "invalid_token", error: error instanceof Error ? error.message : String(error) });
      return ssoRefusedPath("invalid_token");
    }
    // Entra ID never sends email_verified for its organizations' accounts; its optional claim
    // xms_edov (the address's domain is verified as the tenant's) stands in where the token has none.
    const verified = claims.email_verified === undefined ? claims.xms_edov === true : claims.email_verified === true || claims.email_verified === "true";
    const result = await signInWithOidc({
      ctx: systemCtx(),
      input: {
        identity: { issuer: claims.iss!, subject: claims.sub!, email: typeof claims.email === "string" ? claims.email : null, emailVerified: verified },
        autoCreate: settings.autoCreate,
        mappedRole: settings.roleMap ? mapRole(settings.roleMap, claims[settings.roleClaim]) : undefined,
      },
    });
    if (!result.ok) {
      logger.info("single sign-on refused", { reason: result.reason, subject: claims.sub });
      return ssoRefusedPath(result.reason);
    }
    user.id = result.operator.id;
    user.email = result.operator.email;
    return true;
  };

/**
 * A request to Auth.js's routes as they must see it with single sign-on on: at APP_URL's origin.
 * Single sign-on has one redirect URI, the one registered at the provider
 * ($APP_URL/api/auth/callback/oidc), and Auth.js builds it from the request's URL — which, behind a
 * TLS proxy, says http, and which Next.js writes with `localhost` for 127.0.0.1 (its URL class
 * normalizes loopback names): the token request's redirect URI would not be the registered one.
 * A plain Request, so nothing renames it again; Auth.js reads no more than a Request has.
 * (Auth.js's own AUTH_URL does this through Next.js's request class, and, set at start, does not
 * last: Next.js puts process.env back as it found it.)
 */
export function atAppUrl(req: NextRequest): NextRequest {
  if (!ssoSettings()) return req;
  const app = new URL(getConfig().APP_URL);
  const url = new URL(req.url);
  if (url.origin === app.origin) return req;
  const init = { method: req.method, headers: req.headers, body: req.body, duplex: "half", signal: req.signal };
  return new Request(`${app.origin}${url.pathname}${url.search}`, init as RequestInit) as NextRequest;
}

/** The OIDC provider and its sign-in check; nothing without OIDC_ISSUER. */
export function oidcConfig(): { providers: NextAuthConfig["providers"]; signIn: SignInCallback | null } {
  const settings = ssoSettings();
  if (!settings) return { providers: [], signIn: null };
  return { providers: [provider(settings)], signIn: checkSso(settings) };
}

import { createRemoteJWKSet, jwtVerify, type JWTPayload } from "jose";
import { z } from "zod";
import { ConfigError, type Config } from "../config";
import { oidcSettings, type OidcSettings } from "./oidc-settings";

/** How long the start waits for the issuer's discovery document. */
export const DISCOVERY_TIMEOUT_MS = 5_000;

const Discovery = z.object({
  issuer: z.string(),
  authorization_endpoint: z.url(),
  token_endpoint: z.url(),
  jwks_uri: z.url(),
  id_token_signing_alg_values_supported: z.array(z.string()).optional(),
});
type Discovery = z.infer<typeof Discovery>;

const badIssuer = (message: string) => new ConfigError(`Invalid configuration:\n  OIDC_ISSUER: ${message}`);
const why = (error: unknown) => (error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error));

/**
 * The issuer's discovery document, checked as Auth.js will use it: it answers within the timeout,
 * is an OpenID Connect document, and names this very issuer (OIDC Discovery §4.3). Anything else is
 * a ConfigError naming OIDC_ISSUER, so a start stops on it.
 */
export async function fetchDiscovery(issuer: string, timeoutMs = DISCOVERY_TIMEOUT_MS): Promise<Discovery> {
  const url = `${issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`;
  let response: Response;
  try {
    response = await fetch(url, { headers: { accept: "application/json" }, redirect: "error", signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    throw badIssuer(`${url} did not answer within ${timeoutMs / 1000} s (${why(error)})`);
  }
  if (response.status !== 200) throw badIssuer(`${url} answered ${response.status}, not its discovery document`);
  const parsed = Discovery.safeParse(await response.json().catch(() => null));
  if (!parsed.success) {
    throw badIssuer(`${url} is not an OpenID Connect discovery document (${parsed.error.issues.map((i) => i.path.join(".") || i.message).join(", ")})`);
  }
  if (new URL(parsed.data.issuer).href !== new URL(issuer).href) {
    throw badIssuer(`the discovery document at ${url} names the issuer ${parsed.data.issuer}: set OIDC_ISSUER to exactly that`);
  }
  return parsed.data;
}

/**
 * At start: single sign-on's settings hold together and its issuer answers with its discovery
 * document — or a ConfigError naming the setting, which stops the start. Answers the issuer, or
 * null without single sign-on.
 */
export async function checkSingleSignOn(config: Config): Promise<string | null> {
  const settings = oidcSettings(config);
  if (!settings) return null;
  await fetchDiscovery(settings.issuer);
  return settings.issuer;
}

type Verifier = { issuer: string; discovery: Promise<Discovery>; keys?: ReturnType<typeof createRemoteJWKSet> };
let verifier: Verifier | undefined;

function discoveryOf(settings: OidcSettings): Verifier {
  if (verifier?.issuer !== settings.issuer) {
    const current: Verifier = { issuer: settings.issuer, discovery: fetchDiscovery(settings.issuer) };
    // A failed fetch is not kept: the next sign-in asks again.
    current.discovery.catch(() => {
      if (verifier === current) verifier = undefined;
    });
    verifier = current;
  }
  return verifier;
}

/** The issuer's own name for itself (its discovery document's `issuer`): what verified ID tokens carry as `iss`. */
export async function issuerName(settings: OidcSettings): Promise<string> {
  return (await discoveryOf(settings).discovery).issuer;
}

/**
 * Verifies an ID token's signature with the issuer's published keys (jwks_uri, fetched again when
 * a token names a key not seen yet), and again its issuer, audience and expiry. Auth.js's library
 * (oauth4webapi) checks the claims, the nonce and the algorithm's name but not the signature — OIDC
 * allows that for a token fetched over TLS from the token endpoint; a signature costs one check
 * and holds even where TLS was terminated somewhere it should not have been. `none` and HMAC
 * algorithms are never accepted: only public-key signatures the issuer can make and we can check.
 */
export async function verifyIdToken(settings: OidcSettings, idToken: string): Promise<JWTPayload> {
  const current = discoveryOf(settings);
  const discovery = await current.discovery;
  current.keys ??= createRemoteJWKSet(new URL(discovery.jwks_uri), { timeoutDuration: DISCOVERY_TIMEOUT_MS });
  const advertised = discovery.id_token_signing_alg_values_supported ?? ["RS256"];
  const { payload } = await jwtVerify(idToken, current.keys, {
    issuer: discovery.issuer,
    audience: settings.clientId,
    algorithms: advertised.filter((alg) => alg !== "none" && !alg.startsWith("HS")),
    requiredClaims: ["exp", "iat", "sub"],
  });
  return payload;
}

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from "jose";
import Provider from "oidc-provider";

/** A person the test identity provider knows; `login` is what its sign-in form takes (any password). */
export type IdpUser = {
  email: string;
  /** Absent, as Entra ID leaves it out for an organization's accounts. */
  email_verified?: boolean;
  /** Entra ID's optional claim: the address's domain is verified as the tenant's. */
  xms_edov?: boolean;
  groups: string[];
};

/** What the token endpoint does to the ID token it answers: nothing, or one of the attacks on it. */
export type Tamper = null | "wrong_audience" | "expired" | "unsigned" | "wrong_key";

export const IDP_CLIENT = { id: "webhook-admin", secret: "test-client-secret-of-webhook-admin" };

async function signingKey(kid: string) {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  return { ...(await exportJWK(privateKey)), kid, alg: "RS256", use: "sig" } as JWK;
}

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");

/**
 * A real OpenID Provider (panva's certified oidc-provider) on 127.0.0.1, for the app registered as
 * IDP_CLIENT with `redirectUris`: discovery, its development sign-in form (the login is the user's
 * key in `users`, any password), consent taken as given, PKCE required, ID tokens signed RS256
 * with the email, email_verified and groups claims. `tamper` makes its token endpoint answer an ID
 * token changed after signing — as a proxy in front of it would — to show what the app refuses.
 */
export async function startIdp(options: { redirectUris: string[]; users: Record<string, IdpUser> }) {
  const key = await signingKey("idp-key-1");
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const users = options.users;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: IDP_CLIENT.id,
        client_secret: IDP_CLIENT.secret,
        redirect_uris: options.redirectUris,
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    jwks: { keys: [key] },
    cookies: { keys: ["test-idp-cookie-key"] },
    pkce: { required: () => true },
    claims: { openid: ["sub", "groups"], email: ["email", "email_verified", "xms_edov"] },
    // Scope claims in the ID token itself, as Okta, Entra, Keycloak and Google put them there.
    conformIdTokenClaims: false,
    findAccount: (_ctx: unknown, sub: string) => {
      const user = users[sub];
      return user ? { accountId: sub, claims: async () => ({ sub, ...user }) } : undefined;
    },
    // A first-party app: the consent screen is skipped (the pattern oidc-provider documents).
    loadExistingGrant: async (ctx: any) => {
      const grantId = ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
      grant.addOIDCScope("openid email profile");
      await grant.save();
      return grant;
    },
  });
  let tamper: Tamper = null;
  const otherKey = await signingKey("idp-key-1");
  provider.use(async (ctx, next) => {
    await next();
    const original = ctx.body?.id_token;
    if (ctx.path !== "/token" || ctx.method !== "POST" || !tamper || typeof original !== "string") return;
    const claims = decodeJwt(original);
    const header = decodeProtectedHeader(original);
    const now = Math.floor(Date.now() / 1000);
    const changed = { ...claims, ...(tamper === "wrong_audience" ? { aud: "someone-else" } : tamper === "expired" ? { iat: now - 7200, exp: now - 3600 } : {}) };
    let token: string;
    if (tamper === "unsigned") token = `${b64({ alg: "none", typ: "JWT" })}.${b64(changed)}.`;
    else {
      // The IdP's own key where only a claim changed; an attacker's key, under the IdP's key id, for wrong_key.
      const signer = await importJWK(tamper === "wrong_key" ? otherKey : key, "RS256");
      token = await new SignJWT(changed).setProtectedHeader({ alg: "RS256", kid: header.kid ?? key.kid! }).sign(signer);
    }
    ctx.body = { ...ctx.body, id_token: token };
  });
  server.on("request", provider.callback());
  return {
    issuer,
    users,
    tamper: (next: Tamper) => {
      tamper = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

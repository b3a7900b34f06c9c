import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfigForTests } from "../../lib/config";
import { getDb } from "../../lib/db/client";
import { auditEvents, operators } from "../../lib/db/schema";
import { createOperator, setOperatorDisabled } from "../../lib/operators";
import { systemCtx } from "../../lib/open-ctx";
import { CookieJar, send } from "../helpers/cookie-jar";
import { startHttpApp } from "../helpers/http-app";
import { IDP_CLIENT, startIdp, type IdpUser } from "../helpers/oidc-idp";

let app: Awaited<ReturnType<typeof startHttpApp>>;
let idp: Awaited<ReturnType<typeof startIdp>>;

const USERS: Record<string, IdpUser> = {
  ada: { email: "Ada@Example.com", email_verified: true, groups: ["platform-admins"] },
  ben: { email: "ben@example.com", email_verified: true, groups: ["support"] },
  eve: { email: "eve@example.com", email_verified: false, groups: ["platform-admins"] },
  nog: { email: "nog@example.com", email_verified: true, groups: ["marketing"] },
  dis: { email: "dis@example.com", email_verified: true, groups: ["platform-admins"] },
  pat: { email: "pat@example.com", email_verified: true, groups: ["support"] },
  tok: { email: "tok@example.com", email_verified: true, groups: ["support"] },
  rep: { email: "rep@example.com", email_verified: true, groups: ["support"] },
  lnk: { email: "lnk@example.com", email_verified: true, groups: ["support"] },
  // As Entra ID signs in an organization's accounts: no email_verified, with and without xms_edov.
  ent: { email: "ent@example.com", xms_edov: true, groups: ["support"] },
  unv: { email: "unv@example.com", groups: ["support"] },
};

beforeAll(async () => {
  app = await startHttpApp();
  // The app's address, and the same server by another name (localhost) for APP_URL's test below.
  idp = await startIdp({ redirectUris: [`${app.url}/api/auth/callback/oidc`, `${byName()}/api/auth/callback/oidc`], users: USERS });
  Object.assign(process.env, {
    APP_URL: app.url,
    OIDC_ISSUER: idp.issuer,
    OIDC_CLIENT_ID: IDP_CLIENT.id,
    OIDC_CLIENT_SECRET: IDP_CLIENT.secret,
    OIDC_AUTO_CREATE: "true",
    OIDC_ROLE_MAP: "platform-admins=admin,support=viewer",
  });
  resetConfigForTests();
  // The dashboard keeps an admin who signs in with a password; so a disabled admin is not the last.
  await createOperator({ ctx: systemCtx(), input: { email: "owner@example.com", password: "correct horse battery", role: "admin" } });
});

afterAll(async () => {
  await idp?.close();
  await app?.close();
});

/** The app's server, named localhost rather than 127.0.0.1. */
const byName = () => app.url.replace("127.0.0.1", "localhost");

type Flow = { landed: URL; jar: CookieJar; callback: { url: string; jar: CookieJar } | null };

/**
 * Signs in through the identity provider as `login`, over HTTP, following every redirect as a
 * browser would with one cookie jar: Auth.js's sign-in (CSRF token, then POST) → the IdP's
 * authorization endpoint → its sign-in form, filled in → back to the app's callback → where the
 * app lands the browser (a page: `/` signed in, `/login?…` refused). Keeps the callback request
 * (its URL and the cookies it carried) for replaying.
 */
async function signInAs(login: string, jar = new CookieJar()): Promise<Flow> {
  const csrf = (await (await send(jar, `${app.url}/api/auth/csrf`)).json()) as { csrfToken: string };
  let response = await send(jar, `${app.url}/api/auth/signin/oidc`, { form: { csrfToken: csrf.csrfToken, callbackUrl: `${app.url}/` } });
  let callback: Flow["callback"] = null;
  for (let hops = 0; hops < 20; hops++) {
    if (response.status >= 300 && response.status < 400) {
      const next = new URL(response.headers.get("location")!, response.url || app.url);
      if (next.origin !== idp.issuer && !next.pathname.startsWith("/api/")) return { landed: next, jar, callback };
      if (next.pathname === "/api/auth/callback/oidc") callback = { url: next.href, jar: jar.copy() };
      response = await send(jar, next.href);
      continue;
    }
    const html = await response.text();
    const form = /<form[^>]*action="([^"]+)"[^>]*>\s*<input type="hidden" name="prompt" value="(\w+)"/.exec(html);
    if (response.status !== 200 || !form) throw new Error(`unexpected answer ${response.status} from ${response.url}: ${html.slice(0, 300)}`);
    response = await send(jar, form[1]!.replaceAll("&amp;", "&"), { form: form[2] === "login" ? { prompt: "login", login, password: "any" } : { prompt: form[2]! } });
  }
  throw new Error("too many redirects");
}

async function sessionOf(jar: CookieJar): Promise<{ id: string; email: string } | null> {
  const session = (await (await send(jar, `${app.url}/api/auth/session`)).json()) as { user?: { id: string; email: string } } | null;
  return session?.user ?? null;
}

const operatorRow = async (email: string) => (await getDb().select().from(operators).where(eq(operators.email, email)))[0];
const auditOf = async (id: string) => (await getDb().select().from(auditEvents).where(eq(auditEvents.targetId, id))).map((e) => e.action).sort();

function expectRefused(flow: Flow, reason: string) {
  expect(flow.landed.pathname).toBe("/login");
  expect(Object.fromEntries(flow.landed.searchParams)).toMatchObject(reason === "failed" ? {} : { error: "SsoRefused", reason });
  if (reason === "failed") expect(["Configuration", "OAuthCallbackError", "SsoRefused"]).toContain(flow.landed.searchParams.get("error"));
  expect([...flow.jar.cookies.keys()].filter((name) => name.includes("session-token"))).toEqual([]);
}

describe("single sign-on through a real OpenID provider", () => {
  it("creates an unknown verified email as an operator with the role its groups map to, signed in, linked to the IdP account", async () => {
    const flow = await signInAs("ada");
    expect(flow.landed.href).toBe(`${app.url}/`);
    const row = await operatorRow("ada@example.com");
    expect(row).toMatchObject({ role: "admin", passwordHash: null, oidcIssuer: idp.issuer, oidcSubject: "ada", disabledAt: null });
    expect(await sessionOf(flow.jar)).toMatchObject({ id: row!.id, email: "ada@example.com" });
    expect(await auditOf(row!.id)).toEqual(["operator.created"]);
  });

  it("matches an existing operator by verified email (case-insensitive), links it, and re-maps its role at every sign-in, audited", async () => {
    const existing = await createOperator({ ctx: systemCtx(), input: { email: "BEN@example.com", password: "correct horse battery", role: "admin" } });
    const first = await signInAs("ben");
    expect(await sessionOf(first.jar)).toMatchObject({ id: existing.id });
    expect(await operatorRow("ben@example.com")).toMatchObject({ id: existing.id, role: "viewer", oidcSubject: "ben" });
    USERS.ben!.groups = ["support", "platform-admins"];
    const second = await signInAs("ben");
    expect(await sessionOf(second.jar)).toMatchObject({ id: existing.id });
    expect((await operatorRow("ben@example.com"))!.role).toBe("admin");
    const changes = await getDb().select().from(auditEvents).where(eq(auditEvents.targetId, existing.id));
    expect(changes.filter((e) => e.action === "operator.role_changed").map((e) => e.data)).toEqual([
      { email: "ben@example.com", from: "admin", to: "viewer", via: "oidc" },
      { email: "ben@example.com", from: "viewer", to: "admin", via: "oidc" },
    ]);
    expect(changes.filter((e) => e.action === "operator.sso_linked")).toHaveLength(1);
  });

  it("matches by the IdP account once linked: a changed email at the IdP signs in the same operator, and cannot take another's", async () => {
    await signInAs("pat");
    const pat = await operatorRow("pat@example.com");
    // Pat's address at the IdP changes to the owner's: still Pat's own operator, never the owner's.
    USERS.pat!.email = "owner@example.com";
    const flow = await signInAs("pat");
    expect(await sessionOf(flow.jar)).toMatchObject({ id: pat!.id, email: "pat@example.com" });
    // And a new IdP account with the address of an operator linked to another account is refused.
    USERS.tok!.email = "pat@example.com";
    expectRefused(await signInAs("tok"), "linked_elsewhere");
  });

  it("builds the redirect URI from APP_URL, not from the address the request came to", async () => {
    // As behind a proxy, or as Next.js names its own routes' requests: another name than APP_URL's.
    process.env.APP_URL = byName();
    resetConfigForTests();
    try {
      USERS.url = { email: "url@example.com", email_verified: true, groups: ["support"] };
      const flow = await signInAs("url");
      expect(flow.callback!.url.startsWith(`${byName()}/api/auth/callback/oidc?`)).toBe(true);
      expect(flow.landed.href).toBe(`${byName()}/`);
      expect(await sessionOf(flow.jar)).toMatchObject({ email: "url@example.com" });
    } finally {
      process.env.APP_URL = app.url;
      resetConfigForTests();
    }
  });

  it("refuses an email the IdP does not say it verified", async () => {
    expectRefused(await signInAs("eve"), "unverified_email");
    expect(await operatorRow("eve@example.com")).toBeUndefined();
  });

  it("takes Entra ID's xms_edov for a verified address where the token has no email_verified, and refuses one with neither", async () => {
    expect((await signInAs("ent")).landed.href).toBe(`${app.url}/`);
    expect(await operatorRow("ent@example.com")).toMatchObject({ role: "viewer", oidcSubject: "ent" });
    expectRefused(await signInAs("unv"), "unverified_email");
  });

  it("refuses someone none of whose groups map to a role, creating nothing", async () => {
    expectRefused(await signInAs("nog"), "no_role");
    expect(await operatorRow("nog@example.com")).toBeUndefined();
  });

  it("refuses a disabled operator, and ends the session it had at its next request", async () => {
    const before = await signInAs("dis");
    expect(await sessionOf(before.jar)).not.toBeNull();
    await setOperatorDisabled({ ctx: systemCtx(), input: { email: "dis@example.com", disabled: true } });
    expectRefused(await signInAs("dis"), "disabled");
    // The cookie still decodes; the operator it names no longer signs anything in.
    const { operatorFromSession } = await import("../../lib/auth/request-session");
    expect(await operatorFromSession(new Request(app.url, { headers: { cookie: before.jar.header() } }), systemCtx())).toBeNull();
  });

  it("refuses an unknown email without OIDC_AUTO_CREATE", async () => {
    process.env.OIDC_AUTO_CREATE = "false";
    resetConfigForTests();
    try {
      USERS.new = { email: "new@example.com", email_verified: true, groups: ["platform-admins"] };
      expectRefused(await signInAs("new"), "unknown_operator");
      expect(await operatorRow("new@example.com")).toBeUndefined();
    } finally {
      process.env.OIDC_AUTO_CREATE = "true";
      resetConfigForTests();
    }
  });

  describe("refuses an ID token that does not hold", () => {
    afterAll(() => idp.tamper(null));
    // wrong_audience, expired and unsigned: Auth.js's own checks (oauth4webapi) end the callback;
    // wrong_key passes them all (it checks no signature) and is refused by lib/auth/oidc-issuer.ts.
    it.each([
      ["wrong_audience", "failed"],
      ["expired", "failed"],
      ["unsigned", "failed"],
      ["wrong_key", "invalid_token"],
    ] as const)("%s", async (tamper, reason) => {
      idp.tamper(tamper);
      USERS[`t-${tamper}`] = { email: `t-${tamper}@example.com`, email_verified: true, groups: ["platform-admins"] };
      expectRefused(await signInAs(`t-${tamper}`), reason);
      expect(await operatorRow(`t-${tamper}@example.com`)).toBeUndefined();
    });
  });

  it("refuses a replayed callback: state, PKCE and nonce are used once, and so is the code", async () => {
    const flow = await signInAs("rep");
    expect(flow.landed.href).toBe(`${app.url}/`);
    const { url, jar } = flow.callback!;
    // The same request again, with the very cookies it carried (state, PKCE verifier, nonce).
    const replay = await send(jar, url);
    expect(replay.status).toBe(302);
    expect(new URL(replay.headers.get("location")!).pathname).toBe("/login");
    expect(jar.cookies.has("authjs.session-token")).toBe(false);
    // And from the browser that signed in, whose state cookie is spent.
    const again = await send(new CookieJar(), url);
    expect(new URL(again.headers.get("location")!).pathname).toBe("/login");
  });

  it("with PASSWORD_SIGN_IN=false refuses a right password posted straight to Auth.js, which takes it otherwise", async () => {
    const passwordSignIn = async () => {
      const jar = new CookieJar();
      const csrf = (await (await send(jar, `${app.url}/api/auth/csrf`)).json()) as { csrfToken: string };
      const form = { csrfToken: csrf.csrfToken, email: "owner@example.com", password: "correct horse battery", callbackUrl: `${app.url}/` };
      const response = await send(jar, `${app.url}/api/auth/callback/credentials`, { form });
      return { location: new URL(response.headers.get("location")!), session: await sessionOf(jar) };
    };
    expect((await passwordSignIn()).session).toMatchObject({ email: "owner@example.com" });
    process.env.PASSWORD_SIGN_IN = "false";
    resetConfigForTests();
    try {
      const refused = await passwordSignIn();
      expect(refused.session).toBeNull();
      expect(refused.location.pathname).toBe("/login");
    } finally {
      delete process.env.PASSWORD_SIGN_IN;
      resetConfigForTests();
    }
  });

  // Last in the file: once Auth.js has seen an email provider it asks for an adapter ever after in
  // this process (a module-level flag of @auth/core's config check), as a server never would.
  it("signs in the same way beside the emailed link, whose database adapter Auth.js then asks for the account first", async () => {
    // SMTP_URL turns the link on, and with it the adapter (lib/auth/email-link.ts); nothing is mailed here.
    process.env.SMTP_URL = "smtp://127.0.0.1:9";
    resetConfigForTests();
    try {
      const created = await signInAs("lnk");
      const row = await operatorRow("lnk@example.com");
      expect(await sessionOf(created.jar)).toMatchObject({ id: row!.id });
      const again = await signInAs("lnk");
      expect(await sessionOf(again.jar)).toMatchObject({ id: row!.id });
      expectRefused(await signInAs("nog"), "no_role");
    } finally {
      delete process.env.SMTP_URL;
      resetConfigForTests();
    }
  });
});

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../helpers/built-app";
import { runNode } from "../helpers/node-process";
import { IDP_CLIENT, startIdp } from "../helpers/oidc-idp";

/** `npm run web` as a host runs it, with these settings: it must stop before it serves anything. */
const startWeb = (env: Record<string, string | undefined>) =>
  runNode("scripts/start.ts", ["--only", "web"], { env: { NODE_ENV: "production", ...env } });

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

let silent: Server;
let silentUrl: string;
let impostor: Server;
let impostorUrl: string;
let idp: Awaited<ReturnType<typeof startIdp>>;

beforeAll(async () => {
  // Takes connections and never answers.
  silent = createServer(() => {});
  silentUrl = await listen(silent);
  // Answers a discovery document that names another issuer.
  impostor = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ issuer: "https://idp.example.com", authorization_endpoint: "https://idp.example.com/auth", token_endpoint: "https://idp.example.com/token", jwks_uri: "https://idp.example.com/jwks" }));
  });
  impostorUrl = await listen(impostor);
  idp = await startIdp({ redirectUris: ["http://127.0.0.1:9/api/auth/callback/oidc"], users: {} });
});

afterAll(async () => {
  silent?.closeAllConnections();
  await new Promise((resolve) => silent?.close(resolve));
  await new Promise((resolve) => impostor?.close(resolve));
  await idp?.close();
});

const sso = () => ({ OIDC_ISSUER: idp.issuer, OIDC_CLIENT_ID: IDP_CLIENT.id, OIDC_CLIENT_SECRET: IDP_CLIENT.secret });

describe("single sign-on's settings stop the start, in words naming the setting", () => {
  it.each([
    ["an issuer nothing listens on", async () => ({ ...sso(), OIDC_ISSUER: `http://127.0.0.1:${await freePort()}` }), /OIDC_ISSUER: http:\/\/127\.0\.0\.1:\d+\/\.well-known\/openid-configuration did not answer within 5 s/],
    ["an issuer that does not answer", async () => ({ ...sso(), OIDC_ISSUER: silentUrl }), /OIDC_ISSUER: .* did not answer within 5 s \(.*\)/],
    ["a discovery document of another issuer", async () => ({ ...sso(), OIDC_ISSUER: impostorUrl }), /OIDC_ISSUER: the discovery document at .* names the issuer https:\/\/idp\.example\.com: set OIDC_ISSUER to exactly that/],
    ["an issuer over plain http elsewhere than this machine", async () => ({ ...sso(), OIDC_ISSUER: "http://idp.example.com" }), /OIDC_ISSUER: must be an https:\/\/ URL/],
    ["no client secret", async () => ({ ...sso(), OIDC_CLIENT_SECRET: undefined }), /OIDC_CLIENT_SECRET: required with OIDC_ISSUER/],
    ["no client id", async () => ({ ...sso(), OIDC_CLIENT_ID: undefined }), /OIDC_CLIENT_ID: required with OIDC_ISSUER/],
    ["a role map naming no role of ours", async () => ({ ...sso(), OIDC_ROLE_MAP: "admins=admin,ops=operator" }), /OIDC_ROLE_MAP: "ops=operator": the role must be one of admin, viewer/],
    ["a role map entry that is not group=role", async () => ({ ...sso(), OIDC_ROLE_MAP: "admins" }), /OIDC_ROLE_MAP: "admins" is not group=role/],
    ["auto-create without a role map", async () => ({ ...sso(), OIDC_AUTO_CREATE: "true" }), /OIDC_AUTO_CREATE: true needs OIDC_ROLE_MAP/],
    ["password sign-in off without single sign-on", async () => ({ PASSWORD_SIGN_IN: "false" }), /PASSWORD_SIGN_IN: false needs single sign-on \(OIDC_ISSUER\)/],
  ])("%s", async (_name, env, message) => {
    const { code, output } = await startWeb(await env());
    expect(code, output).toBe(1);
    expect(output).toMatch(/Invalid configuration:/);
    expect(output).toMatch(message);
    // Said, not thrown: no stack trace.
    expect(output).not.toMatch(/\n\s+at /);
  });

  it("lets a start with a working issuer past the check: it names the issuer, and goes on to the database", async () => {
    // A database that does not exist stops it right after, whether or not a build is there to serve.
    const database = new URL(process.env.DATABASE_URL!);
    database.pathname = "/no_such_database";
    const { code, output } = await startWeb({ ...sso(), PASSWORD_SIGN_IN: "false", OIDC_ROLE_MAP: "admins=admin,*=viewer", DATABASE_URL: database.href });
    expect(output).toContain(`Single sign-on through ${idp.issuer} (password sign-in off).`);
    expect(code, output).toBe(1);
    expect(output).toContain("no_such_database");
  });
});

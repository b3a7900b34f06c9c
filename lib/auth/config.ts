import type { NextAuthConfig } from "next-auth";
import { CredentialsSignin } from "next-auth";
import { logger } from "../logger";
import { sessionRowCallbacks } from "./session-rows";
import { authSecret, secureCookies, sessionMaxAgeSeconds } from "./settings";

/**
 * Auth.js's settings but the provider (lib/auth/index.ts adds the password one). A function, read
 * per request: `next build` imports this without the runtime environment.
 */
export function baseAuthConfig(request?: Request): NextAuthConfig {
  return {
    secret: authSecret(),
    // The app is reached through APP_URL or a reverse proxy; redirects stay on the host asked for.
    trustHost: true,
    useSecureCookies: secureCookies(),
    session: { strategy: "jwt", maxAge: sessionMaxAgeSeconds() },
    pages: { signIn: "/login", error: "/login" },
    providers: [],
    // A row per session, named in the JWT, so a session can be listed and ended (./session-rows.ts).
    ...sessionRowCallbacks(request),
    // Failed sign-ins are expected and counted elsewhere; nothing of a request body is ever logged.
    logger: {
      error(error) {
        if (error instanceof CredentialsSignin) return;
        logger.error("auth error", { error: error.name, message: error.message });
      },
      warn(code) {
        logger.warn("auth warning", { code });
      },
      debug() {},
    },
  };
}

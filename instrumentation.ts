export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { installDatabaseCrashGuard } = await import("./lib/db/crash-guard");
    installDatabaseCrashGuard("web");
    // Single sign-on's settings and its issuer, checked as npm start checks them (scripts/start.ts),
    // for a web process started without it (`next start`): a bad one stops the start, in words.
    const { ConfigError, getConfig } = await import("./lib/config");
    const { checkSingleSignOn } = await import("./lib/auth/oidc-issuer");
    const ssoIssuer = await checkSingleSignOn(getConfig()).catch((error: unknown) => {
      if (!(error instanceof ConfigError)) throw error;
      console.error(error.message);
      process.exit(1);
    });
    // Single sign-on has one redirect URI, the one registered at the provider ($APP_URL/api/auth/
    // callback/oidc): Auth.js builds it from AUTH_URL when set, else from the request — the Host
    // header for the sign-in action but the server's own address (localhost) for its routes, which
    // would not match. An AUTH_URL of the operator's own is kept.
    if (ssoIssuer) process.env.AUTH_URL ??= getConfig().APP_URL;
    // SIGTERM: readiness 503 for SHUTDOWN_DELAY while still serving, then next start's own close.
    const { installShutdownDelay } = await import("./lib/runtime/lifecycle");
    const { parseDuration } = await import("./lib/duration");
    installShutdownDelay(parseDuration(process.env.SHUTDOWN_DELAY || "5s") ?? 5000);
    // Traces, off unless OTEL_EXPORTER_OTLP_ENDPOINT is set (lib/telemetry/tracing.ts); after the
    // shutdown delay's handler, so SIGTERM also exports the spans ended so far.
    const { flushTracing, startTracing } = await import("./lib/telemetry/tracing");
    if (await startTracing("web")) process.once("SIGTERM", () => void flushTracing());
  }
}

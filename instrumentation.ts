export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { installDatabaseCrashGuard } = await import("./lib/db/crash-guard");
    installDatabaseCrashGuard("web");
    // Single sign-on's settings and its issuer, checked as npm start checks them (scripts/start.ts),
    // for a web process started without it (`next start`): a bad one stops the start, in words.
    const { ConfigError, getConfig } = await import("./lib/config");
    const { checkSingleSignOn } = await import("./lib/auth/oidc-issuer");
    await checkSingleSignOn(getConfig()).catch((error: unknown) => {
      if (!(error instanceof ConfigError)) throw error;
      console.error(error.message);
      process.exit(1);
    });
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

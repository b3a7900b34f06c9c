export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { installDatabaseCrashGuard } = await import("./lib/db/crash-guard");
    installDatabaseCrashGuard("web");
    // SIGTERM: readiness 503 for SHUTDOWN_DELAY while still serving, then next start's own close.
    const { installShutdownDelay } = await import("./lib/runtime/lifecycle");
    const { parseDuration } = await import("./lib/duration");
    installShutdownDelay(parseDuration(process.env.SHUTDOWN_DELAY || "5s") ?? 5000);
  }
}

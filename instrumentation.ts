export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { installDatabaseCrashGuard } = await import("./lib/db/crash-guard");
    installDatabaseCrashGuard("web");
  }
}

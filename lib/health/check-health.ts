import { sql } from "drizzle-orm";
import type { Ctx } from "../context";
import { logger } from "../logger";
import { VERSION } from "../version";

/** drizzle wraps the driver's error ("Failed query: …"); the cause is what says why. */
function describe(error: unknown): string {
  const messages: string[] = [];
  for (let e = error, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    messages.push(e instanceof Error ? e.message : String(e));
  }
  return messages.join(" ← ");
}

export type Health = { status: "ok" | "unavailable"; version: string; database: { ok: boolean; latency_ms: number } };

/**
 * The app is up if it can run a query; reports the database round trip. Anyone may ask, so the
 * answer says only `unavailable`: the driver's error (host names, user names, server messages)
 * goes to the log.
 */
export async function checkHealth({ db }: Ctx): Promise<Health> {
  const started = performance.now();
  try {
    await Promise.race([
      db.execute(sql`select 1`),
      new Promise((_, reject) => setTimeout(() => reject(new Error("timed out after 3 s")), 3000).unref()),
    ]);
    return { status: "ok", version: VERSION, database: { ok: true, latency_ms: Math.round(performance.now() - started) } };
  } catch (error) {
    const latency = Math.round(performance.now() - started);
    logger.warn("health check: the database is unavailable", { latency_ms: latency, error: describe(error) });
    return { status: "unavailable", version: VERSION, database: { ok: false, latency_ms: latency } };
  }
}

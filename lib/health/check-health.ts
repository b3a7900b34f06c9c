import { sql } from "drizzle-orm";
import { getDb, type Executor } from "../db/client";

/** The app is up if it can run a query; reports the database round trip. */
export async function checkHealth(db: Executor = getDb()): Promise<{ status: "ok" | "unavailable"; database: { ok: boolean; latency_ms: number; error?: string } }> {
  const started = performance.now();
  try {
    await Promise.race([
      db.execute(sql`select 1`),
      new Promise((_, reject) => setTimeout(() => reject(new Error("timed out after 3 s")), 3000).unref()),
    ]);
    return { status: "ok", database: { ok: true, latency_ms: Math.round(performance.now() - started) } };
  } catch (error) {
    return {
      status: "unavailable",
      database: { ok: false, latency_ms: Math.round(performance.now() - started), error: error instanceof Error ? error.message.slice(0, 200) : "unreachable" },
    };
  }
}

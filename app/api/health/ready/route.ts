import { checkReadiness } from "@/lib/health/check-readiness";
import { json } from "@/lib/http/request";

export const dynamic = "force-dynamic";

/** Readiness: 200 when this process should get traffic, 503 while migrations are pending, the database is away, or it is stopping. */
export async function GET() {
  const readiness = await checkReadiness();
  return json(readiness, readiness.status === "ready" ? 200 : 503, { "cache-control": "no-store" });
}

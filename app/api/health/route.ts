import { checkHealth } from "@/lib/health/check-health";
import { json } from "@/lib/http/request";

export const dynamic = "force-dynamic";

export async function GET() {
  const health = await checkHealth();
  return json(health, health.status === "ok" ? 200 : 503, { "cache-control": "no-store" });
}

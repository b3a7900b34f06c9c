import { checkHealth } from "@/lib/health/check-health";
import { json } from "@/lib/http/request";
import { served } from "@/lib/http/served";
import { systemCtx } from "../../../lib/open-ctx";

export const dynamic = "force-dynamic";

// Polled by load balancers every few seconds: its access line is at debug.
export const GET = served(
  async () => {
    const health = await checkHealth(systemCtx());
    return json(health, health.status === "ok" ? 200 : 503, { "cache-control": "no-store" });
  },
  { api: false },
);

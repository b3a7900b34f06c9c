import { getConfig } from "@/lib/config";
import { metricsRequestAllowed } from "@/lib/metrics/metrics-token";
import { renderWebMetrics } from "@/lib/metrics/web";
import { served } from "@/lib/http/served";

export const dynamic = "force-dynamic";

/**
 * Prometheus exposition of this web process (lib/metrics/web.ts). Not found — the same answer as
 * any unknown path — unless METRICS_TOKEN is set and the request carries it as a bearer.
 */
export const GET = served(
  async (request: Request) => {
    if (!metricsRequestAllowed(getConfig().METRICS_TOKEN, request.headers.get("authorization"))) {
      return new Response("Not Found", { status: 404, headers: { "content-type": "text/plain", "cache-control": "no-store" } });
    }
    const { contentType, text } = await renderWebMetrics();
    return new Response(text, { status: 200, headers: { "content-type": contentType, "cache-control": "no-store" } });
  },
  // Scraped every few seconds: its access line is at debug, and it is not counted in what it serves.
  { api: false },
);

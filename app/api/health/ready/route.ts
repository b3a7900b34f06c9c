import { checkReadiness } from "@/lib/health/check-readiness";
import { json } from "@/lib/http/request";
import { served } from "@/lib/http/served";
import { systemCtx } from "../../../../lib/open-ctx";

export const dynamic = "force-dynamic";

/** Readiness: 200 when this process should get traffic, 503 while migrations are pending, the database is away, or it is stopping. */
export const GET = served(
  async () => {
    const readiness = await checkReadiness(systemCtx());
    return json(readiness, readiness.status === "ready" ? 200 : 503, { "cache-control": "no-store" });
  },
  { api: false },
);

import { noContent } from "@/lib/http/request";
import { svixMethods, svixRoute } from "@/lib/svix/route";

export const GET = svixRoute(async () => noContent(), {
  portal: "scoped",
  role: "read",
  doc: {
    operationId: "svixHealth",
    summary: "Health (Svix: health.get)",
    description: "204 when the API answers with this credential. Our own readiness is `GET /api/health/ready`.",
    success: { status: 204, description: "Up." },
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = svixMethods({ GET });

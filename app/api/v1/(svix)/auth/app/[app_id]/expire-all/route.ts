import { noContent } from "@/lib/http/request";
import { SVIX_APP } from "@/lib/svix/openapi";
import { ExpireAllIn, expireAllPortalSessions } from "@/lib/svix/portal-access";
import { svixMethods, svixRoute } from "@/lib/svix/route";

export const POST = svixRoute(
  async ({ params, ctx, body }) => {
    await expireAllPortalSessions(ctx, params.app_id!, body);
    return noContent();
  },
  {
    body: ExpireAllIn,
    portal: false,
    role: "write",
    doc: {
      operationId: "svixExpireAllPortalSessions",
      summary: "End an application's portal sessions (Svix: authentication.expireAll)",
      description:
        "The consumer's portal sessions (the app-portal tokens among them) and its unused portal links end in `expiry` seconds (0–259200, now by default); " +
        "with `sessionIds`, only those appPortalAccess made with one of them.",
      params: SVIX_APP,
      success: { status: 204, description: "Ended." },
    },
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = svixMethods({ POST });

import { noContent } from "@/lib/http/request";
import { SVIX_APP } from "@/lib/svix/openapi";
import { expireAllPortalSessions } from "@/lib/svix/portal-access";
import { svixMethods, svixRoute } from "@/lib/svix/route";
import { z } from "zod";

// Svix's `expiry` and `sessionIds` are read and not honoured: every session ends now.
const ExpireAllIn = z.object({ expiry: z.number().int().min(0).nullish(), sessionIds: z.array(z.string()).nullish() });

export const POST = svixRoute(
  async ({ params, ctx }) => {
    await expireAllPortalSessions(ctx, params.app_id!);
    return noContent();
  },
  {
    body: ExpireAllIn,
    portal: false,
    role: "write",
    doc: {
      operationId: "svixExpireAllPortalSessions",
      summary: "End an application's portal sessions (Svix: authentication.expireAll)",
      description: "Every portal session of the consumer ends now, whatever `expiry` and `sessionIds` say.",
      params: SVIX_APP,
      success: { status: 204, description: "Ended." },
    },
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = svixMethods({ POST });

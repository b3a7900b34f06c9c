import { noContent } from "@/lib/http/request";
import { logout } from "@/lib/svix/portal-access";
import { svixMethods, svixRoute } from "@/lib/svix/route";

export const POST = svixRoute(
  async ({ ctx }) => {
    await logout(ctx);
    return noContent();
  },
  {
    portal: "scoped",
    role: "read",
    doc: {
      operationId: "svixLogout",
      summary: "End this app-portal token (Svix: authentication.logout)",
      description: "Sent with an app-portal token (`ps_…`): its session ends. Any other credential is 401.",
      success: { status: 204, description: "Ended." },
    },
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = svixMethods({ POST });

import { json } from "@/lib/http/request";
import { SVIX_APP } from "@/lib/svix/openapi";
import { AppPortalAccessIn, appPortalAccess, AppPortalAccessOut } from "@/lib/svix/portal-access";
import { svixMethods, svixRoute } from "@/lib/svix/route";

export const POST = svixRoute(async ({ params, ctx, body }) => json(await appPortalAccess(ctx, params.app_id!, body)), {
  body: AppPortalAccessIn,
  mintsCredentials: true,
  portal: false,
  role: "write",
  doc: {
    operationId: "svixAppPortalAccess",
    summary: "Portal access for an application (Svix: authentication.appPortalAccess)",
    description:
      "`url`: a one-time link into our customer portal for the consumer (Svix capabilities mapped onto ours). " +
      "`token`: a portal session (`ps_…`) for the Svix SDK and svix-react on that application's Svix routes only (our own API answers it 403), for `expiry` seconds; " +
      "each Svix capability grants what Svix documents (docs/security.md). A replay of the same `Idempotency-Key` answers a new link and token: none is kept. " +
      "`application` makes the consumer when none has this id or uid.",
    params: SVIX_APP,
    body: { schema: AppPortalAccessIn, required: false },
    success: { status: 200, description: "The link and the token.", schema: AppPortalAccessOut },
  },
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = svixMethods({ POST });

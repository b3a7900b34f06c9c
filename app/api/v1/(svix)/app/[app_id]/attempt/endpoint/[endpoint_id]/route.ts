import { json } from "@/lib/http/request";
import { ListAttemptsQuery, listAttemptsByEndpoint } from "@/lib/svix/messages";
import { SVIX_ENDPOINT, ListResponseMessageAttemptOut } from "@/lib/svix/openapi";
import { parseSvixQuery } from "@/lib/svix/request";
import { svixMethods, svixRoute } from "@/lib/svix/route";

export const GET = svixRoute(async ({ req, params, ctx }) => json(await listAttemptsByEndpoint(ctx, params.app_id!, params.endpoint_id!, parseSvixQuery(req, ListAttemptsQuery))), {
  portal: "scoped",
  role: "read",
  doc: {
    operationId: "svixListAttemptsByEndpoint",
    summary: "List an endpoint's attempts (Svix: messageAttempt.listByEndpoint)",
    description: "Newest first. `status` 0 success or 2 fail (our attempts have ended); `status_code_class` 0 for no HTTP answer.",
    params: SVIX_ENDPOINT,
    query: ListAttemptsQuery,
    success: { status: 200, description: "A page of attempts.", schema: ListResponseMessageAttemptOut },
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = svixMethods({ GET });

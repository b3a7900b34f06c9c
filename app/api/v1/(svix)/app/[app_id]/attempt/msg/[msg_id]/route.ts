import { json } from "@/lib/http/request";
import { ListAttemptsQuery, listAttemptsByMessage } from "@/lib/svix/messages";
import { SVIX_MESSAGE, ListResponseMessageAttemptOut } from "@/lib/svix/openapi";
import { parseSvixQuery } from "@/lib/svix/request";
import { svixMethods, svixRoute } from "@/lib/svix/route";

export const GET = svixRoute(async ({ req, params, ctx }) => json(await listAttemptsByMessage(ctx, params.app_id!, params.msg_id!, parseSvixQuery(req, ListAttemptsQuery))), {
  portal: "scoped",
  role: "read",
  doc: {
    operationId: "svixListAttemptsByMessage",
    summary: "List a message's attempts (Svix: messageAttempt.listByMsg)",
    description: "Newest first. `status` 0 success or 2 fail (our attempts have ended); `status_code_class` 0 for no HTTP answer.",
    params: SVIX_MESSAGE,
    query: ListAttemptsQuery,
    success: { status: 200, description: "A page of attempts.", schema: ListResponseMessageAttemptOut },
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = svixMethods({ GET });

import { json } from "@/lib/http/request";
import { getSvixAttempt, MessageAttemptOut } from "@/lib/svix/messages";
import { SVIX_ATTEMPT } from "@/lib/svix/openapi";
import { svixMethods, svixRoute } from "@/lib/svix/route";

export const GET = svixRoute(async ({ params, ctx }) => json(await getSvixAttempt(ctx, params.app_id!, params.msg_id!, params.attempt_id!)), {
  portal: "scoped",
  role: "read",
  doc: {
    operationId: "svixGetAttempt",
    summary: "Get an attempt (Svix: messageAttempt.get)",
    params: SVIX_ATTEMPT,
    success: { status: 200, description: "The attempt.", schema: MessageAttemptOut },
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = svixMethods({ GET });

import { noContent } from "@/lib/http/request";
import { expungeSvixAttemptContent } from "@/lib/svix/expunge";
import { SVIX_ATTEMPT } from "@/lib/svix/openapi";
import { svixMethods, svixRoute } from "@/lib/svix/route";

export const DELETE = svixRoute(
  async ({ params, ctx }) => {
    await expungeSvixAttemptContent(ctx, params.app_id!, params.msg_id!, params.attempt_id!);
    return noContent();
  },
  {
    portal: false,
    role: "write",
    doc: {
      operationId: "svixExpungeAttemptContent",
      summary: "Delete an attempt's response body (Svix: messageAttempt.expungeContent)",
      description: "The response the receiver answered, as the attempt log keeps it, is erased; its status, error and timing stay. Audited.",
      params: SVIX_ATTEMPT,
      success: { status: 204, description: "The response body is gone." },
    },
  },
);

export const { GET, POST, PUT, PATCH, OPTIONS } = svixMethods({ DELETE });

import { noContent } from "@/lib/http/request";
import { expungeSvixMessageContent } from "@/lib/svix/expunge";
import { SVIX_MESSAGE } from "@/lib/svix/openapi";
import { svixMethods, svixRoute } from "@/lib/svix/route";

export const DELETE = svixRoute(
  async ({ params, ctx }) => {
    await expungeSvixMessageContent(ctx, params.app_id!, params.msg_id!);
    return noContent();
  },
  {
    portal: false,
    role: "write",
    doc: {
      operationId: "svixExpungeMessageContent",
      summary: "Delete a message's payload (Svix: message.expungeContent)",
      description:
        "Our DELETE /messages/{id}/payload: the bytes are overwritten, its attempts' response bodies emptied, its pending deliveries canceled; " +
        "it can never be sent again. Already expunged: 204 again.",
      params: SVIX_MESSAGE,
      success: { status: 204, description: "The payload is gone." },
    },
  },
);

export const { GET, POST, PUT, PATCH, OPTIONS } = svixMethods({ DELETE });

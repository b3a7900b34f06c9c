import { json } from "@/lib/http/request";
import { resendSvixMessage } from "@/lib/svix/messages";
import { SVIX_RESEND } from "@/lib/svix/openapi";
import { svixMethods, svixRoute } from "@/lib/svix/route";

export const POST = svixRoute(
  async ({ params, ctx }) => {
    await resendSvixMessage(ctx, params.app_id!, params.msg_id!, params.endpoint_id!);
    // The SDKs parse every 2xx but a 204: the body is the literal {}.
    return json({}, 202);
  },
  {
    portal: "resend",
    role: "write",
    doc: {
      operationId: "svixResendMessage",
      summary: "Resend a message to an endpoint (Svix: messageAttempt.resend)",
      description: "A manual attempt, queued. 400 `missing_payload` once the payload is expunged.",
      params: SVIX_RESEND,
      success: { status: 202, description: "`{}`." },
    },
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = svixMethods({ POST });

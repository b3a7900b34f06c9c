import { otherMethods } from "@/lib/http/methods";
import { noContent } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { endConsumerPortalSessions } from "@/lib/portal";
import { CONSUMER } from "@/lib/openapi/params";

export const DELETE = withApi(async ({ params, ctx }) => {
  await endConsumerPortalSessions({ ctx, ref: params.consumer! });
  return noContent();
}, {
  portal: false,
  role: "write",
  doc: {
    operationId: "endConsumerPortalSessions",
    summary: "End every portal session of a consumer",
    tag: "Portal",
    params: CONSUMER,
    success: { status: 204, description: "Ended." },
  },
});

export const { GET, POST, PUT, PATCH, OPTIONS } = otherMethods({ DELETE });

import { json } from "@/lib/http/request";
import { ListAttemptedDestinationsQuery, listAttemptedDestinations } from "@/lib/svix/messages";
import { SVIX_MESSAGE, ListResponseMessageEndpointOut } from "@/lib/svix/openapi";
import { parseSvixQuery } from "@/lib/svix/request";
import { svixMethods, svixRoute } from "@/lib/svix/route";

export const GET = svixRoute(
  async ({ req, params, ctx }) => json(await listAttemptedDestinations(ctx, params.app_id!, params.msg_id!, parseSvixQuery(req, ListAttemptedDestinationsQuery))),
  {
    portal: "scoped",
    role: "read",
    doc: {
      operationId: "svixListAttemptedDestinations",
      summary: "List a message's destinations (Svix: messageAttempt.listAttemptedDestinations)",
      description: "The endpoints the message goes to, each with its delivery's status.",
      params: SVIX_MESSAGE,
      query: ListAttemptedDestinationsQuery,
      success: { status: 200, description: "A page of endpoints.", schema: ListResponseMessageEndpointOut },
    },
  },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = svixMethods({ GET });

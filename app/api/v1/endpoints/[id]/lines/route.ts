import { EndpointLines, listLines } from "@/lib/endpoints";
import { otherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { ENDPOINT } from "@/lib/openapi/params";

export const GET = withApi(async ({ params, ctx }) => json(await listLines({ ctx, id: params.id! })), {
  portal: "scoped",
  role: "read",
  doc: {
    operationId: "listEndpointLines",
    summary: "An ordered endpoint's lines with messages waiting",
    description:
      "On an endpoint whose `ordering` is `ordered`, the lines (one per value of its `ordering_key`) that have messages waiting behind their head, most waiting first (at most 50), each with the message holding it. Counts read at most 100,000 queued rows (`capped`). An endpoint that is not ordered answers no lines.",
    tag: "Endpoints",
    params: ENDPOINT,
    success: { status: 200, description: "The waiting lines and their heads.", schema: EndpointLines },
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });

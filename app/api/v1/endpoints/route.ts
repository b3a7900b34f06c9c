import { SearchEndpointsQuery, searchEndpoints } from "@/lib/endpoints";
import { json, parseQuery } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { PageQuery } from "@/lib/pagination";
import { otherMethods } from "@/lib/http/methods";
import { EndpointWithConsumer } from "@/lib/endpoints/schemas";

export const GET = withApi(async ({ req, ctx }) => json(await searchEndpoints(ctx, parseQuery(req, PageQuery.extend(SearchEndpointsQuery.shape)))), {
  portal: "scoped",
  role: "read",
  doc: {
    operationId: "searchEndpoints",
    summary: "List and search endpoints across consumers",
    description:
      "Every consumer's endpoints, newest first, each naming its consumer; `q` finds them by URL, description, or their consumer's name or uid (case-insensitive, anywhere in the text), `consumer` keeps one consumer's. A portal session lists its own consumer's.",
    tag: "Endpoints",
    query: PageQuery.extend(SearchEndpointsQuery.shape),
    success: { status: 200, description: "A page of endpoints, newest first, with their consumer.", schema: EndpointWithConsumer, list: true },
    errors: { 404: "`not_found`: no such consumer." },
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });

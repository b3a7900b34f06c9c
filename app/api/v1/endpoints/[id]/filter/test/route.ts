import { FilterTestResult, TestFilterInput, testFilter } from "@/lib/endpoints";
import { otherMethods } from "@/lib/http/methods";
import { json, parseBody } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { ENDPOINT } from "@/lib/openapi/params";

export const POST = withApi(async ({ req, params, ctx }) => json(await testFilter({ ctx, id: params.id!, filter: (await parseBody(req, TestFilterInput)).filter })), {
  portal: "scoped",
  role: "read",
  doc: {
    operationId: "testEndpointFilter",
    summary: "Try a payload filter on an endpoint's last messages",
    description:
      "Which of the endpoint's last 20 messages (those its event types and channels take, newest first, among its consumer's last 5,000, whose payload is kept) `filter` would let through, before it is saved. Changes nothing. The filter is checked as `PATCH /endpoints/{id}` checks it.",
    tag: "Endpoints",
    params: ENDPOINT,
    body: { schema: TestFilterInput },
    success: { status: 200, description: "Each message and whether the filter lets it through.", schema: FilterTestResult },
    errors: { 422: "`invalid_filter`: the filter breaks a rule; each fault in `errors` with its JSON `pointer`." },
  },
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });

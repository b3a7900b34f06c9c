import { ListRecoveriesQuery, listRecoveries } from "@/lib/recoveries";
import { json, parseQuery } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { PageQuery } from "@/lib/pagination";
import { otherMethods } from "@/lib/http/methods";
import { Recovery } from "@/lib/recoveries/schemas";

export const GET = withApi(async ({ req, ctx }) => json(await listRecoveries(ctx, parseQuery(req, PageQuery.extend(ListRecoveriesQuery.shape)))), {
  portal: "scoped",
  role: "read",
  doc: {
    operationId: "listRecoveries",
    summary: "List recoveries",
    tag: "Recoveries",
    query: PageQuery.extend(ListRecoveriesQuery.shape),
    success: { status: 200, description: "A page of recoveries, newest first.", schema: Recovery, list: true },
    errors: { 404: "`not_found`: no such consumer." },
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });

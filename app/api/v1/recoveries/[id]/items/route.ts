import { ListItemsQuery, listRecoveryItems, recoveryItemsCsv } from "@/lib/recoveries";
import { json, parseQuery } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { PageQuery } from "@/lib/pagination";
import { otherMethods } from "@/lib/http/methods";
import { RECOVERY } from "@/lib/openapi/params";
import { RecoveryItem } from "@/lib/recoveries/schemas";

export const GET = withApi(async ({ req, params, ctx }) => {
  const query = parseQuery(req, PageQuery.extend(ListItemsQuery.shape));
  if (query.format !== "csv") return json(await listRecoveryItems(ctx, params.id!, query));
  return new Response(await recoveryItemsCsv(ctx, params.id!, query), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${params.id!.replace(/[^a-z0-9_]/gi, "")}-items.csv"`,
    },
  });
}, {
  portal: "scoped",
  role: "read",
  doc: {
    operationId: "listRecoveryItems",
    summary: "The reconciliation report",
    description: "Items in run order (oldest message first), each with its outcome. `format=csv` streams all of them as text/csv.",
    tag: "Recoveries",
    params: RECOVERY,
    query: PageQuery.extend(ListItemsQuery.shape),
    success: { status: 200, description: "A page of items, in run order.", schema: RecoveryItem, list: true },
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });

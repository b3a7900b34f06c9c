import { ListItemsQuery, listRecoveryItems, recoveryItemsCsv } from "@/lib/recoveries";
import { json, parseQuery } from "@/lib/http/request";
import { withApiKey } from "@/lib/http/with-api-key";
import { PageQuery } from "@/lib/pagination";
import { otherMethods } from "@/lib/http/methods";

export const GET = withApiKey(async ({ req, params, ctx }) => {
  const query = parseQuery(req, PageQuery.extend(ListItemsQuery.shape));
  if (query.format !== "csv") return json(await listRecoveryItems(ctx, params.id!, query));
  return new Response(await recoveryItemsCsv(ctx, params.id!, query), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${params.id!.replace(/[^a-z0-9_]/gi, "")}-items.csv"`,
    },
  });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });

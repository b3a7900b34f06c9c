import { ListRecoveriesQuery, listRecoveries } from "@/lib/recoveries";
import { json, parseQuery } from "@/lib/http/request";
import { withApiKey } from "@/lib/http/with-api-key";
import { PageQuery } from "@/lib/pagination";
import { otherMethods } from "@/lib/http/methods";

export const GET = withApiKey(async ({ req, ctx }) => json(await listRecoveries(ctx, parseQuery(req, PageQuery.extend(ListRecoveriesQuery.shape)))));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });

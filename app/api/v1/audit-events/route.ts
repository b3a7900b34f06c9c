import { listAuditEvents } from "@/lib/audit/list-audit-events";
import { otherMethods } from "@/lib/http/methods";
import { ListAuditEventsQuery } from "@/lib/audit/schemas";
import { json, parseQuery } from "@/lib/http/request";
import { withApiKey } from "@/lib/http/with-api-key";
import { PageQuery } from "@/lib/pagination";

export const GET = withApiKey(async ({ req, ctx }) => json(await listAuditEvents(ctx, parseQuery(req, PageQuery.extend(ListAuditEventsQuery.shape)))));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });

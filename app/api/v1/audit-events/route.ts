import { listAuditEvents } from "@/lib/audit-log/list-audit-events";
import { otherMethods } from "@/lib/http/methods";
import { ListAuditEventsQuery, AuditEventView } from "@/lib/audit-log/schemas";
import { json, parseQuery } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { PageQuery } from "@/lib/pagination";

export const GET = withApi(async ({ req, ctx }) => json(await listAuditEvents(ctx, parseQuery(req, PageQuery.extend(ListAuditEventsQuery.shape)))), {
  portal: false,
  role: "read",
  doc: {
    operationId: "listAuditEvents",
    summary: "List audit events",
    description: "Newest first. For API keys and operators; a portal session is refused.",
    tag: "Audit",
    query: PageQuery.extend(ListAuditEventsQuery.shape),
    success: { status: 200, description: "A page of audit events.", schema: AuditEventView, list: true },
    errors: { 403: "`forbidden`: a portal session may not read the audit log." },
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });

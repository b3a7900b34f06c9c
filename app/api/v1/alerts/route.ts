import { ListAlertsQuery, listAlerts } from "@/lib/alerts";
import { json, parseQuery } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { PageQuery } from "@/lib/pagination";
import { otherMethods } from "@/lib/http/methods";
import { Alert } from "@/lib/alerts/schemas";

export const GET = withApi(async ({ req, ctx }) => json(await listAlerts(ctx, parseQuery(req, PageQuery.extend(ListAlertsQuery.shape)))), {
  portal: false,
  role: "read",
  doc: {
    operationId: "listAlerts",
    summary: "List the alert log",
    description: "Every alert per channel or consumer alert email, once it was sent, suppressed by the throttle, or failed.",
    tag: "Alerts",
    query: PageQuery.extend(ListAlertsQuery.shape),
    success: { status: 200, description: "A page of alerts, newest first.", schema: Alert, list: true },
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });

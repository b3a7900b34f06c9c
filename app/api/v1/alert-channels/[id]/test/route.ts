import { testAlertChannel } from "@/lib/alerts";
import { ignoreBody, json } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { otherMethods } from "@/lib/http/methods";
import { ALERT_CHANNEL } from "@/lib/openapi/params";
import { AlertTestQueued } from "@/lib/alerts/schemas";

export const POST = withApi(async ({ req, params, ctx }) => {
  await ignoreBody(req);
  return json(await testAlertChannel({ ctx, id: params.id! }), 202);
}, {
  portal: false,
  role: "write",
  doc: {
    operationId: "testAlertChannel",
    summary: "Send a test alert",
    description: "The worker sends an `alert.test` alert to this channel now, whatever its kinds and the throttle; the outcome appears in GET /alerts.",
    tag: "Alerts",
    params: ALERT_CHANNEL,
    success: { status: 202, description: "The test alert is queued.", schema: AlertTestQueued },
  },
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });

import { UpdateAlertChannelInput, deleteAlertChannel, getAlertChannel, updateAlertChannel } from "@/lib/alerts";
import { ignoreBody, json, noContent, parseBody } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { otherMethods } from "@/lib/http/methods";
import { ALERT_CHANNEL } from "@/lib/openapi/params";
import { AlertChannel } from "@/lib/alerts/schemas";

export const GET = withApi(async ({ params, ctx }) => json(await getAlertChannel(ctx, params.id!)), {
  portal: false,
  role: "read",
  doc: {
    operationId: "getAlertChannel",
    summary: "Get an alert channel",
    tag: "Alerts",
    params: ALERT_CHANNEL,
    success: { status: 200, description: "The channel, credentials masked.", schema: AlertChannel },
  },
});

export const PATCH = withApi(async ({ req, params, ctx }) =>
  json(await updateAlertChannel({ ctx, id: params.id!, input: await parseBody(req, UpdateAlertChannelInput) })), {
  portal: false,
  role: "write",
  doc: {
    operationId: "updateAlertChannel",
    summary: "Update an alert channel",
    tag: "Alerts",
    params: ALERT_CHANNEL,
    body: { schema: UpdateAlertChannelInput },
    success: { status: 200, description: "The updated channel, credentials masked.", schema: AlertChannel },
    errors: { 422: "`validation_failed`, or `endpoint_url_forbidden` for a URL the SSRF rules refuse." },
  },
});

export const DELETE = withApi(async ({ req, params, ctx }) => {
  await ignoreBody(req);
  await deleteAlertChannel({ ctx, id: params.id! });
  return noContent();
}, {
  portal: false,
  role: "write",
  doc: {
    operationId: "deleteAlertChannel",
    summary: "Delete an alert channel",
    description: "Its alert log stays.",
    tag: "Alerts",
    params: ALERT_CHANNEL,
    success: { status: 204, description: "Deleted." },
  },
});

export const { POST, PUT, OPTIONS } = otherMethods({ GET, PATCH, DELETE });

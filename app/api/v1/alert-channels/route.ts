import { CreateAlertChannelInput, createAlertChannel, listAlertChannels } from "@/lib/alerts";
import { json, parseBody, parseQuery } from "@/lib/http/request";
import { withApi } from "@/lib/http/api-route";
import { PageQuery } from "@/lib/pagination";
import { otherMethods } from "@/lib/http/methods";
import { CreatedAlertChannel, AlertChannel } from "@/lib/alerts/schemas";

export const POST = withApi(async ({ req, ctx }) =>
  json(await createAlertChannel({ ctx, input: await parseBody(req, CreateAlertChannelInput) }), 201), {
  portal: false,
  role: "write",
  doc: {
    operationId: "createAlertChannel",
    summary: "Create an alert channel",
    description:
      "Slack, Teams, Chatwork, email or a signed webhook. The config is stored encrypted and answered masked from now on; " +
      "a webhook channel's `whsec_…` secret (generated unless given) is answered in `secret` this once.",
    tag: "Alerts",
    body: { schema: CreateAlertChannelInput },
    success: { status: 201, description: "The new channel, credentials masked.", schema: CreatedAlertChannel },
    errors: { 422: "`validation_failed` (bad config, unknown kind), or `endpoint_url_forbidden` for a URL the SSRF rules refuse." },
  },
});

export const GET = withApi(async ({ req, ctx }) => json(await listAlertChannels(ctx, parseQuery(req, PageQuery))), {
  portal: false,
  role: "read",
  doc: {
    operationId: "listAlertChannels",
    summary: "List alert channels",
    tag: "Alerts",
    query: PageQuery,
    success: { status: 200, description: "A page of channels, newest first, credentials masked.", schema: AlertChannel, list: true },
  },
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });

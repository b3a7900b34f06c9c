import type { z } from "zod";
import { input, output, type Assert, type Item, type Operation, type Same } from "../openapi/operation";
import { PageQuery } from "../pagination";
import type { createAlertChannel } from "./create-alert-channel";
import type { listAlertChannels, listAlerts } from "./queries";
import {
  Alert,
  AlertChannel,
  AlertTestQueued,
  CreateAlertChannelInput,
  CreatedAlertChannel,
  ListAlertsQuery,
  UpdateAlertChannelInput,
} from "./schemas";
import type { testAlertChannel } from "./test-alert-channel";
import type { updateAlertChannel } from "./update-alert-channel";

// This domain's part of the OpenAPI document, assembled by lib/openapi/document.ts.
type _DocumentedAnswersMatch = [
  Assert<Same<z.infer<typeof AlertChannel>, Item<typeof listAlertChannels>>>,
  Assert<Same<z.infer<typeof AlertChannel>, Awaited<ReturnType<typeof updateAlertChannel>>>>,
  Assert<Same<z.infer<typeof CreatedAlertChannel>, Awaited<ReturnType<typeof createAlertChannel>>>>,
  Assert<Same<z.infer<typeof AlertTestQueued>, Awaited<ReturnType<typeof testAlertChannel>>>>,
  Assert<Same<z.infer<typeof Alert>, Item<typeof listAlerts>>>,
];

export const alertTag = {
  name: "Alerts",
  description: "Where alerts about failing, exhausted, disabled, recovered and enabled endpoints go, and the log of every alert sent, suppressed or failed.",
} as const;

export const alertSchemas = {
  AlertChannel: output(AlertChannel),
  CreatedAlertChannel: output(CreatedAlertChannel),
  CreateAlertChannelInput: input(CreateAlertChannelInput),
  UpdateAlertChannelInput: input(UpdateAlertChannelInput),
  AlertTestQueued: output(AlertTestQueued),
  Alert: output(Alert),
};

const ALERT_CHANNEL = { id: "The alert channel's id (`ach_…`)." };

export const alertOperations: Operation[] = [
  {
    method: "post",
    path: "/alert-channels",
    operationId: "createAlertChannel",
    summary: "Create an alert channel",
    description:
      "Slack, Teams, Chatwork, email or a signed webhook. The config is stored encrypted and answered masked from now on; " +
      "a webhook channel's `whsec_…` secret (generated unless given) is answered in `secret` this once.",
    tag: "Alerts",
    body: { schema: "CreateAlertChannelInput" },
    success: { status: 201, description: "The new channel, credentials masked.", schema: "CreatedAlertChannel" },
    errors: { 422: "`validation_failed` (bad config, unknown kind), or `endpoint_url_forbidden` for a URL the SSRF rules refuse." },
  },
  {
    method: "get",
    path: "/alert-channels",
    operationId: "listAlertChannels",
    summary: "List alert channels",
    tag: "Alerts",
    query: PageQuery,
    success: { status: 200, description: "A page of channels, newest first, credentials masked.", schema: "AlertChannel", list: true },
  },
  {
    method: "get",
    path: "/alert-channels/{id}",
    operationId: "getAlertChannel",
    summary: "Get an alert channel",
    tag: "Alerts",
    params: ALERT_CHANNEL,
    success: { status: 200, description: "The channel, credentials masked.", schema: "AlertChannel" },
  },
  {
    method: "patch",
    path: "/alert-channels/{id}",
    operationId: "updateAlertChannel",
    summary: "Update an alert channel",
    tag: "Alerts",
    params: ALERT_CHANNEL,
    body: { schema: "UpdateAlertChannelInput" },
    success: { status: 200, description: "The updated channel, credentials masked.", schema: "AlertChannel" },
    errors: { 422: "`validation_failed`, or `endpoint_url_forbidden` for a URL the SSRF rules refuse." },
  },
  {
    method: "delete",
    path: "/alert-channels/{id}",
    operationId: "deleteAlertChannel",
    summary: "Delete an alert channel",
    description: "Its alert log stays.",
    tag: "Alerts",
    params: ALERT_CHANNEL,
    success: { status: 204, description: "Deleted." },
  },
  {
    method: "post",
    path: "/alert-channels/{id}/test",
    operationId: "testAlertChannel",
    summary: "Send a test alert",
    description: "The worker sends an `alert.test` alert to this channel now, whatever its kinds and the throttle; the outcome appears in GET /alerts.",
    tag: "Alerts",
    params: ALERT_CHANNEL,
    success: { status: 202, description: "The test alert is queued.", schema: "AlertTestQueued" },
  },
  {
    method: "get",
    path: "/alerts",
    operationId: "listAlerts",
    summary: "List the alert log",
    description: "Every alert per channel or consumer alert email, once it was sent, suppressed by the throttle, or failed.",
    tag: "Alerts",
    query: PageQuery.extend(ListAlertsQuery.shape),
    success: { status: 200, description: "A page of alerts, newest first.", schema: "Alert", list: true },
  },
];

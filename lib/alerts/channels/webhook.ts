import { webhookHeaders } from "../../webhooks/request-headers";
import type { AlertFacts } from "../facts";
import type { AlertView } from "../render";
import type { AlertRequest } from "./http";

/**
 * The operational webhook: `{type, timestamp, data}` with `type` the alert kind, the endpoint and
 * consumer flattened into `data` beside the kind's own facts.
 */
export function webhookPayload(facts: AlertFacts, view: AlertView) {
  return {
    type: facts.kind,
    timestamp: facts.raised_at,
    data: {
      ...(facts.endpoint
        ? { endpoint_id: facts.endpoint.id, endpoint_url: facts.endpoint.url, endpoint_description: facts.endpoint.description }
        : {}),
      ...(facts.consumer ? { consumer_id: facts.consumer.id, consumer_uid: facts.consumer.uid, consumer_name: facts.consumer.name } : {}),
      ...facts.data,
      ...(facts.channel_name !== undefined ? { channel_name: facts.channel_name } : {}),
      summary: view.summary,
      folded: facts.folded,
      folded_since: facts.folded_since,
      ...(view.link ? { dashboard_url: view.link.url } : {}),
    },
  };
}

/** Signed with Standard Webhooks under the channel's own secret; `webhook-id` is the alert's id. */
export function webhookRequest(facts: AlertFacts, view: AlertView, channel: { url: string; secret: string }, alertId: string): AlertRequest {
  const body = JSON.stringify(webhookPayload(facts, view));
  return { url: channel.url, headers: webhookHeaders({ messageId: alertId, body, secrets: [channel.secret], custom: {} }), body };
}

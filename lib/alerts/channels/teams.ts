import type { Config } from "../../config";
import type { AlertView } from "../render";
import { rebaseUrl, type AlertRequest } from "./http";

const COLOR: Record<AlertView["tone"], string> = { bad: "Attention", good: "Good", info: "Accent" };

/** A Teams message carrying one Adaptive Card (what Teams workflows and incoming webhooks take). */
export function teamsMessage(view: AlertView) {
  const body: Record<string, unknown>[] = [
    { type: "TextBlock", text: view.title, size: "Large", weight: "Bolder", color: COLOR[view.tone], wrap: true },
    { type: "TextBlock", text: view.summary, wrap: true },
  ];
  if (view.fields.length) body.push({ type: "FactSet", facts: view.fields.map((f) => ({ title: f.label, value: f.value })) });
  if (view.foldedNote) body.push({ type: "TextBlock", text: view.foldedNote, isSubtle: true, wrap: true });
  return {
    type: "message",
    attachments: [
      {
        contentType: "application/vnd.microsoft.card.adaptive",
        contentUrl: null,
        content: {
          $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
          type: "AdaptiveCard",
          version: "1.4",
          body,
          ...(view.link ? { actions: [{ type: "Action.OpenUrl", title: view.link.label, url: view.link.url }] } : {}),
        },
      },
    ],
  };
}

/** With TEAMS_API_BASE set (a local fake or a forwarding proxy), every Teams URL is sent there. */
export function teamsRequest(view: AlertView, channel: { webhook_url: string }, config: Config): AlertRequest {
  const url = config.TEAMS_API_BASE ? rebaseUrl(channel.webhook_url, config.TEAMS_API_BASE) : channel.webhook_url;
  return { url, headers: { "content-type": "application/json" }, body: JSON.stringify(teamsMessage(view)) };
}

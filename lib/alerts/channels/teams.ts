import type { Config } from "../../config";
import type { AlertView } from "../render";
import { rebaseUrl, type AlertRequest } from "./http";

const COLOR: Record<AlertView["tone"], string> = { bad: "Attention", good: "Good", info: "Accent" };

/**
 * Teams renders TextBlock text and FactSet titles and values as Markdown (CommonMark's emphasis,
 * links, lists) plus `{{DATE(…)}}` functions, and a value here may be the customer's text (an
 * endpoint's description, a consumer's name, a receiver's error). A backslash is CommonMark's escape
 * for any ASCII punctuation, so the inline markers are escaped wherever they are. Line breaks become
 * spaces, so no customer line can start a block (list, heading, quote, code); only the text's own
 * start can, and a list or quote marker there is escaped too. `.`, `:`, `/` and `-` elsewhere stay
 * as they are: URLs and timestamps read unchanged.
 */
export function teamsText(text: string): string {
  return text
    .replace(/[\r\n\u2028\u2029]+/g, " ")
    .trimStart()
    .replace(/[\\`*_~[\]<>&{}#|!]/g, "\\$&")
    .replace(/^[-+]/, "\\$&")
    .replace(/^(\d+)([.)])/, "$1\\$2");
}

/** A Teams message carrying one Adaptive Card (what Teams workflows and incoming webhooks take). */
export function teamsMessage(view: AlertView) {
  const body: Record<string, unknown>[] = [
    { type: "TextBlock", text: teamsText(view.title), size: "Large", weight: "Bolder", color: COLOR[view.tone], wrap: true },
    { type: "TextBlock", text: teamsText(view.summary), wrap: true },
  ];
  if (view.fields.length) body.push({ type: "FactSet", facts: view.fields.map((f) => ({ title: teamsText(f.label), value: teamsText(f.value) })) });
  if (view.foldedNote) body.push({ type: "TextBlock", text: teamsText(view.foldedNote), isSubtle: true, wrap: true });
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

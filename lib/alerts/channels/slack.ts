import type { Config } from "../../config";
import type { AlertView } from "../render";
import type { AlertRequest } from "./http";
import { rebaseUrl } from "./http";

const SLACK_ORIGIN = "https://hooks.slack.com";
const EMOJI: Record<AlertView["tone"], string> = { bad: ":red_circle:", good: ":large_green_circle:", info: ":information_source:" };

/** Slack's mrkdwn: these three are control characters (links, mentions) unless escaped. */
const esc = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** An incoming-webhook message: `text` for notifications, `blocks` for the message itself. */
export function slackMessage(view: AlertView) {
  const blocks: Record<string, unknown>[] = [
    { type: "header", text: { type: "plain_text", text: cut(view.title, 150), emoji: true } },
    { type: "section", text: { type: "mrkdwn", text: cut(esc(view.summary), 3000) } },
  ];
  if (view.fields.length) {
    blocks.push({
      type: "section",
      // Slack allows 10 fields of up to 2,000 characters each.
      fields: view.fields.slice(0, 10).map((f) => ({ type: "mrkdwn", text: cut(`*${esc(f.label)}*\n${esc(f.value)}`, 2000) })),
    });
  }
  if (view.foldedNote) blocks.push({ type: "context", elements: [{ type: "mrkdwn", text: esc(view.foldedNote) }] });
  if (view.link) {
    blocks.push({ type: "actions", elements: [{ type: "button", text: { type: "plain_text", text: view.link.label }, url: view.link.url }] });
  }
  const text = `${EMOJI[view.tone]} ${view.title}: ${view.summary}${view.foldedNote ? ` (${view.foldedNote})` : ""}`;
  return { text: esc(text), blocks };
}

/** Slack's own URLs are sent to SLACK_API_BASE (by default Slack itself); any other URL as given. */
export function slackRequest(view: AlertView, channel: { webhook_url: string }, config: Config): AlertRequest {
  const url = new URL(channel.webhook_url).origin === SLACK_ORIGIN ? rebaseUrl(channel.webhook_url, config.SLACK_API_BASE) : channel.webhook_url;
  return { url, headers: { "content-type": "application/json" }, body: JSON.stringify(slackMessage(view)) };
}

import type { Config } from "../../config";
import type { AlertView } from "../render";
import type { AlertRequest } from "./http";

// Chatwork has no escape for its tags: a bracket in a value (an endpoint description is the
// customer's text) could otherwise write [toall] or close the [info] box. Fullwidth ones read alike.
const neutral = (text: string) => text.replace(/\[/g, "［").replace(/\]/g, "］");

/** The message in Chatwork's markup: one [info] box with a [title]. */
export function chatworkMessage(view: AlertView): string {
  const lines = [
    neutral(view.summary),
    "",
    ...view.fields.map((f) => `${f.label}: ${neutral(f.value)}`),
    ...(view.foldedNote ? ["", neutral(view.foldedNote)] : []),
    ...(view.link ? ["", `${view.link.label}: ${view.link.url}`] : []),
  ];
  return `[info][title]${neutral(view.title)}[/title]${lines.join("\n")}[/info]`;
}

/** `POST {CHATWORK_API_BASE}/rooms/{room_id}/messages`, the token in X-ChatWorkToken, a form body. */
export function chatworkRequest(view: AlertView, channel: { api_token: string; room_id: string }, config: Config): AlertRequest {
  return {
    url: `${config.CHATWORK_API_BASE.replace(/\/+$/, "")}/rooms/${encodeURIComponent(channel.room_id)}/messages`,
    headers: { "content-type": "application/x-www-form-urlencoded", "X-ChatWorkToken": channel.api_token },
    body: new URLSearchParams({ body: chatworkMessage(view) }).toString(),
  };
}

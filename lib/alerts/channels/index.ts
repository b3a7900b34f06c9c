import type { Config } from "../../config";
import type { ChannelConfigs, ChannelKind } from "../channel-config";
import type { AlertFacts } from "../facts";
import { describeAlert } from "../render";
import { chatworkRequest } from "./chatwork";
import { alertEmail, sendAlertEmail } from "./email";
import { postAlert, type AlertRequest } from "./http";
import type { SendOutcome } from "./outcome";
import { slackRequest } from "./slack";
import { teamsRequest } from "./teams";
import { webhookRequest } from "./webhook";

export type { SendOutcome } from "./outcome";

/** One try of one alert to one channel, in the channel's own format. */
export async function sendToChannel(
  channel: { id: string; kind: ChannelKind; config: Record<string, unknown> },
  facts: AlertFacts,
  alertId: string,
  config: Config,
): Promise<SendOutcome> {
  const view = describeAlert(facts, config.APP_URL);
  if (channel.kind === "email") {
    const email = alertEmail(view, facts.endpoint?.url ?? null);
    return sendAlertEmail((channel.config as ChannelConfigs["email"]).to, email, config);
  }
  let request: AlertRequest;
  switch (channel.kind) {
    case "slack":
      request = slackRequest(view, channel.config as ChannelConfigs["slack"], config);
      break;
    case "teams":
      request = teamsRequest(view, channel.config as ChannelConfigs["teams"], config);
      break;
    case "chatwork":
      request = chatworkRequest(view, channel.config as ChannelConfigs["chatwork"], config);
      break;
    case "webhook":
      request = webhookRequest(facts, view, channel.config as Required<ChannelConfigs["webhook"]>, alertId);
      break;
  }
  return postAlert(request, config, channel.id);
}

/** A consumer's own alert email: the same message, without the operators' dashboard link. */
export function sendConsumerEmail(recipient: string, facts: AlertFacts, config: Config): Promise<SendOutcome> {
  return sendAlertEmail([recipient], alertEmail(describeAlert(facts, config.APP_URL), facts.endpoint?.url ?? null), config);
}

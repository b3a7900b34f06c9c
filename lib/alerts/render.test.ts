import { describe, expect, it } from "vitest";
import { maskUrl } from "./channel-config";
import { chatworkMessage } from "./channels/chatwork";
import { alertEmail } from "./channels/email";
import { slackMessage } from "./channels/slack";
import type { AlertFacts } from "./facts";
import { describeAlert, foldedNote } from "./render";

const facts = (over: Partial<AlertFacts> = {}): AlertFacts => ({
  kind: "endpoint.disabled",
  raised_at: "2026-11-30T12:00:00.000Z",
  endpoint: { id: "ep_1", url: "https://hooks.acme.test/x", description: "<!channel> [toall] <b>hi</b>", state: "auto_disabled" },
  consumer: { id: "con_1", uid: "acme", name: "Acme" },
  data: { reason: "no successful delivery for 5d while failing" },
  folded: 0,
  folded_since: null,
  audience: "operator",
  ...over,
});

describe("alert rendering", () => {
  it("says how many alerts were folded in, and only when some were", () => {
    expect(foldedNote(0, null)).toBeNull();
    expect(foldedNote(1, "2026-11-30T11:00:00.000Z")).toBe("1 other alert about this endpoint was not sent since 2026-11-30T11:00:00.000Z.");
    expect(foldedNote(3, "2026-11-30T11:00:00.000Z")).toBe("3 other alerts about this endpoint were not sent since 2026-11-30T11:00:00.000Z.");
  });

  it("links operators to the dashboard, never a consumer", () => {
    expect(describeAlert(facts(), "https://admin.test").link).toEqual({ label: "Open in dashboard", url: "https://admin.test/endpoints/ep_1" });
    expect(describeAlert(facts({ audience: "consumer" }), "https://admin.test").link).toBeNull();
  });

  it("keeps a customer's text from writing Slack mentions, Chatwork tags or HTML", () => {
    const view = describeAlert(facts(), "https://admin.test");
    expect(JSON.stringify(slackMessage(view))).not.toContain("<!channel>");
    expect(JSON.stringify(slackMessage(view))).toContain("&lt;!channel&gt;");
    const chatwork = chatworkMessage(view);
    expect(chatwork).not.toContain("[toall]");
    expect(chatwork.match(/\[\/info\]/g)).toHaveLength(1);
    expect(alertEmail(view, "x").html).not.toContain("<b>hi</b>");
  });

  it("masks URLs down to the origin and, for long paths, their last 4 characters", () => {
    expect(maskUrl("https://hooks.slack.com/services/T0/B0/abcdefghijkl")).toBe("https://hooks.slack.com/…ijkl");
    expect(maskUrl("https://x.test/short")).toBe("https://x.test/…");
    expect(maskUrl("https://x.test/")).toBe("https://x.test");
  });
});

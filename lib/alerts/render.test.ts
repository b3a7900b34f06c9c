import { describe, expect, it } from "vitest";
import { maskUrl } from "./channel-config";
import { chatworkMessage } from "./channels/chatwork";
import { alertEmail } from "./channels/email";
import { slackMessage } from "./channels/slack";
import { teamsMessage, teamsText } from "./channels/teams";
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

  it("keeps a customer's text from writing Markdown in a Teams card", () => {
    const hostile = [
      "**bold** __strong__ *em* _em_ ~~gone~~ `code`",
      "[click me](https://evil.test/x) ![pixel](https://evil.test/p.png) <https://evil.test> [ref]: https://evil.test",
      "<at>everyone</at> <b>hi</b> &amp; &#42; {{DATE(2017-02-14T06:08:39Z, SHORT)}} a | b \\*still text\\*",
    ].join(" ");
    const blocks = ["# Heading\n- item\n+ item\n* item\n1. first\n2) second\n> quote\n    code\n---", "\r\n1. starts a list", "- starts a list", "12) too"];
    const view = describeAlert(
      facts({
        kind: "recovery.paused",
        endpoint: { id: "ep_1", url: "https://hooks.acme.test/x?a=[b](c)", description: `${hostile} ${blocks[0]}`, state: "active" },
        consumer: { id: "con_1", uid: "acme_1", name: blocks[1]! },
        data: { recovery_id: "rcv_1", reason: blocks[2], last_error: hostile, last_status_code: 500, event_type: blocks[3] },
      }),
      "https://admin.test",
    );
    const card = teamsMessage(view).attachments[0]!.content;
    const factSet = card.body.flatMap((b) => (b.facts as { title: string; value: string }[] | undefined) ?? []);
    const texts = [...card.body.flatMap((b) => (typeof b.text === "string" ? [b.text] : [])), ...factSet.flatMap((f) => [f.title, f.value])];
    expect(texts.join("\n")).toContain("Description");
    // What a CommonMark reader still sees as markup once every backslash escape is taken out.
    const bare = (text: string) => text.replace(/\\[!-/:-@[-`{-~]/g, "");
    for (const text of texts) {
      expect(bare(text), text).not.toMatch(/[*_~`[\]<>&{}#|!\\]/);
      expect(text, text).not.toMatch(/[\r\n]/);
      expect(text, text).not.toMatch(/^\s*([-+>]|\d+[.)]|\s{4})/);
    }
    // Inert, not lost: taking the escapes out gives the customer's text back (lines joined).
    const unescape = (text: string) => text.replace(/\\([!-/:-@[-`{-~])/g, "$1");
    const value = (label: string) => unescape(factSet.find((f) => f.title === label)!.value);
    expect(value("Description")).toBe(`${hostile} ${blocks[0]!.replace(/\n/g, " ")}`);
    expect(value("Consumer")).toBe("1. starts a list (acme_1)");
    expect(value("Reason")).toBe("- starts a list");
    expect(value("Event type")).toBe("12) too");
    expect(value("Last result")).toBe(`HTTP 500 (${hostile})`);
    // URLs and timestamps are left readable: only their markup characters are escaped.
    expect(teamsText("https://hooks.acme.test/a-b/c.d?x=1:2")).toBe("https://hooks.acme.test/a-b/c.d?x=1:2");
    expect(teamsText("2026-11-30T12:00:00.000Z")).toBe("2026-11-30T12:00:00.000Z");
    expect(teamsText("ep_1")).toBe("ep\\_1");
  });

  it("masks URLs down to the origin and, for long paths, their last 4 characters", () => {
    expect(maskUrl("https://hooks.slack.com/services/T0/B0/abcdefghijkl")).toBe("https://hooks.slack.com/…ijkl");
    expect(maskUrl("https://x.test/short")).toBe("https://x.test/…");
    expect(maskUrl("https://x.test/")).toBe("https://x.test");
  });
});

// Reads a polling endpoint's messages and verifies each one
// with the official Standard Webhooks library (Node.js 18 or later).
//   npm install standardwebhooks
// (An ES module: "type": "module" in package.json, or name the file .mjs.)
import { Webhook } from "standardwebhooks";

// This endpoint's signing secret. In production, read it from your secret store.
const webhook = new Webhook("{{SECRET}}");
// A poll token of this endpoint (ept_…), shown once when it was made.
const token = process.env.POLL_TOKEN;
const pollUrl = "{{POLL_URL}}";

// Where the last page ended. In production: stored with what you processed,
// and read back when the reader starts again.
let cursor = null;
// The id of every message already taken: a page read again after a crash
// gives them again. In production: a table with a unique key on the id.
const processed = new Set();

for (;;) {
  const url = new URL(pollUrl);
  url.searchParams.set("limit", "100");
  if (cursor) url.searchParams.set("cursor", cursor);
  // With nothing to read, the poll waits (up to 30 s) for the next message:
  // no sleep between polls.
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  if (res.status === 410) {
    // The cursor is older than the messages kept: start again from the oldest.
    cursor = null;
    continue;
  }
  if (!res.ok) {
    console.warn(`poll failed: ${res.status} ${await res.text()}`);
    await new Promise((resolve) => setTimeout(resolve, 5000));
    continue;
  }
  const page = await res.json();
  for (const message of page.data) {
    let event;
    try {
      // `body` is the exact text the signature covers.
      event = webhook.verify(message.body, message.headers);
    } catch (error) {
      console.warn(`${message.id}: refused: ${error.message}`);
      continue;
    }
    if (processed.has(message.id)) continue;
    processed.add(message.id);
    console.log(`${message.id}: processed`, message.event_type, JSON.stringify(event));
  }
  cursor = page.cursor;
}

// Receives webhooks at POST /webhooks and verifies each one
// with the official Standard Webhooks library.
//   npm install express standardwebhooks
// (An ES module: "type": "module" in package.json, or name the file .mjs.)
import express from "express";
import { Webhook } from "standardwebhooks";

// This endpoint's signing secret. In production, read it from your secret store.
const webhook = new Webhook("{{SECRET}}");

// The webhook-id of every message already taken.
// In production: a table with a unique key on webhook-id.
const processed = new Set();

const app = express();

// express.raw() keeps the exact bytes we signed:
// JSON parsed and serialised again would not verify.
app.post("/webhooks", express.raw({ type: "application/json" }), (req, res) => {
  let event;
  try {
    // Checks the signature (either one, during a secret rotation)
    // and that webhook-timestamp is within 5 minutes of now.
    event = webhook.verify(req.body, req.headers);
  } catch (error) {
    console.warn(`refused: ${error.message}`);
    return res.status(400).send("invalid signature");
  }

  const id = req.get("webhook-id"); // the same on every retry of one message
  if (processed.has(id)) {
    // A retry of what you already have: answer 2xx, or it is sent again.
    console.log(`${id}: already processed`);
    return res.sendStatus(204);
  }
  processed.add(id);

  // Answer first, within seconds; then do the work (a job queue in production).
  res.sendStatus(204);
  const test = req.get("webhook-test") === "true";
  setImmediate(() => handle(id, event, test));
});

function handle(id, event, test) {
  // Events may arrive out of order: before acting on one,
  // re-read the latest state of what it is about.
  console.log(`${id}: processed${test ? " (a test event)" : ""}`, JSON.stringify(event));
}

const port = Number(process.env.PORT ?? 3000);
app.listen(port, () => console.log(`Listening on http://localhost:${port}/webhooks`));

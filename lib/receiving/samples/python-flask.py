# Receives webhooks at POST /webhooks and verifies each one
# with the official Standard Webhooks library.
#   pip install flask standardwebhooks
import json
import os
import queue
import threading

from flask import Flask, request
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

# This endpoint's signing secret. In production, read it from your secret store.
webhook = Webhook("{{SECRET}}")

# The webhook-id of every message already taken.
# In production: a table with a unique key on webhook-id.
processed = set()
lock = threading.Lock()
jobs = queue.Queue()  # in production: your job queue

app = Flask(__name__)


@app.post("/webhooks")
def receive():
    # get_data() is the exact bytes we signed:
    # JSON parsed and serialised again would not verify.
    payload = request.get_data()
    try:
        # Checks the signature (either one, during a secret rotation)
        # and that webhook-timestamp is within 5 minutes of now.
        event = webhook.verify(payload, dict(request.headers))
    except WebhookVerificationError as error:
        print(f"refused: {error}", flush=True)
        return "invalid signature", 400

    webhook_id = request.headers["webhook-id"]  # the same on every retry
    with lock:
        if webhook_id in processed:
            # A retry of what you already have: answer 2xx, or it is sent again.
            print(f"{webhook_id}: already processed", flush=True)
            return "", 204
        processed.add(webhook_id)

    test = request.headers.get("webhook-test") == "true"
    jobs.put((webhook_id, event, test))
    return "", 204  # answer first, within seconds; work() does the work


def work():
    while True:
        webhook_id, event, test = jobs.get()
        # Events may arrive out of order: before acting on one,
        # re-read the latest state of what it is about.
        note = " (a test event)" if test else ""
        print(f"{webhook_id}: processed{note} {json.dumps(event)}", flush=True)


threading.Thread(target=work, daemon=True).start()

if __name__ == "__main__":
    app.run(port=int(os.environ.get("PORT", "3000")))

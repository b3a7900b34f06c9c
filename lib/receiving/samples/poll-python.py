# Reads a polling endpoint's messages and verifies each one
# with the official Standard Webhooks library.
#   pip install requests standardwebhooks
import json
import os
import time

import requests
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

# This endpoint's signing secret. In production, read it from your secret store.
webhook = Webhook("{{SECRET}}")
# A poll token of this endpoint (ept_...), shown once when it was made.
token = os.environ["POLL_TOKEN"]
poll_url = "{{POLL_URL}}"

# Where the last page ended. In production: stored with what you processed,
# and read back when the reader starts again.
cursor = None
# The id of every message already taken: a page read again after a crash
# gives them again. In production: a table with a unique key on the id.
processed = set()

while True:
    params = {"limit": 100}
    if cursor:
        params["cursor"] = cursor
    # With nothing to read, the poll waits (up to 30 s) for the next message:
    # no sleep between polls.
    res = requests.get(poll_url, params=params, headers={"Authorization": f"Bearer {token}"}, timeout=60)
    if res.status_code == 410:
        # The cursor is older than the messages kept: start again from the oldest.
        cursor = None
        continue
    if not res.ok:
        print(f"poll failed: {res.status_code} {res.text}", flush=True)
        time.sleep(5)
        continue
    page = res.json()
    for message in page["data"]:
        try:
            # `body` is the exact text the signature covers: json.dumps of the
            # payload would not give the same bytes back.
            event = webhook.verify(message["body"], message["headers"])
        except WebhookVerificationError as error:
            print(f"{message['id']}: refused: {error}", flush=True)
            continue
        if message["id"] in processed:
            continue
        processed.add(message["id"])
        print(f"{message['id']}: processed", message["event_type"], json.dumps(event), flush=True)
    cursor = page["cursor"]

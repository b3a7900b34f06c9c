<?php
// Reads a polling endpoint's messages and verifies each one
// with the official Standard Webhooks library. Run it from the command line.
//   composer require standard-webhooks/standard-webhooks
require __DIR__ . '/vendor/autoload.php';

use StandardWebhooks\Webhook;
use StandardWebhooks\Exception\WebhookVerificationException;

// This endpoint's signing secret. In production, read it from your secret store.
$webhook = new Webhook('{{SECRET}}');
// A poll token of this endpoint (ept_...), shown once when it was made.
$token = getenv('POLL_TOKEN');
$pollUrl = '{{POLL_URL}}';

// Where the last page ended. In production: stored with what you processed,
// and read back when the reader starts again.
$cursor = null;
// The id of every message already taken: a page read again after a crash
// gives them again. In production: a table with a unique key on the id.
$processed = [];

while (true) {
    $query = http_build_query(array_filter(['limit' => 100, 'cursor' => $cursor]));
    // With nothing to read, the poll waits (up to 30 s) for the next message:
    // no sleep between polls.
    $context = stream_context_create(['http' => [
        'header' => "Authorization: Bearer $token\r\n",
        'timeout' => 60,
        'ignore_errors' => true,
    ]]);
    $response = file_get_contents("$pollUrl?$query", false, $context);
    $status = (int) explode(' ', $http_response_header[0] ?? 'HTTP/1.1 0')[1];
    if ($status === 410) {
        // The cursor is older than the messages kept: start again from the oldest.
        $cursor = null;
        continue;
    }
    if ($status !== 200) {
        fwrite(STDERR, "poll failed: $status $response\n");
        sleep(5);
        continue;
    }
    $page = json_decode($response, true);
    foreach ($page['data'] as $message) {
        try {
            // `body` is the exact text the signature covers.
            $event = $webhook->verify($message['body'], $message['headers']);
        } catch (WebhookVerificationException $e) {
            fwrite(STDERR, "{$message['id']}: refused: {$e->getMessage()}\n");
            continue;
        }
        if (isset($processed[$message['id']])) {
            continue;
        }
        $processed[$message['id']] = true;
        echo "{$message['id']}: processed {$message['event_type']} " . json_encode($event) . "\n";
    }
    $cursor = $page['cursor'];
}

<?php
// Receives webhooks (POST) and verifies each one
// with the official Standard Webhooks library.
//   composer require standard-webhooks/standard-webhooks
require __DIR__ . '/vendor/autoload.php';

use StandardWebhooks\Webhook;
use StandardWebhooks\Exception\WebhookVerificationException;

// This endpoint's signing secret. In production, read it from your secret store.
$webhook = new Webhook('{{SECRET}}');

// The exact bytes we signed: JSON decoded and encoded again would not verify.
$payload = file_get_contents('php://input');
$headers = [
    'webhook-id' => $_SERVER['HTTP_WEBHOOK_ID'] ?? null,
    'webhook-timestamp' => $_SERVER['HTTP_WEBHOOK_TIMESTAMP'] ?? null,
    'webhook-signature' => $_SERVER['HTTP_WEBHOOK_SIGNATURE'] ?? null,
];

try {
    // Checks the signature (either one, during a secret rotation)
    // and that webhook-timestamp is within 5 minutes of now.
    $event = $webhook->verify($payload, $headers);
} catch (WebhookVerificationException $error) {
    error_log('refused: ' . $error->getMessage());
    http_response_code(400);
    exit('invalid signature');
}

// A unique key on webhook-id (the same on every retry of one message):
// a retry inserts nothing. The inbox is also the queue: your worker
// processes its rows later.
$db = new PDO('sqlite:' . __DIR__ . '/webhooks.sqlite');
$db->exec('CREATE TABLE IF NOT EXISTS webhook_inbox (
    webhook_id TEXT PRIMARY KEY,
    payload TEXT NOT NULL,
    test INTEGER NOT NULL,
    processed_at TEXT
)');
$insert = $db->prepare(
    'INSERT OR IGNORE INTO webhook_inbox (webhook_id, payload, test) VALUES (?, ?, ?)'
);
$test = ($_SERVER['HTTP_WEBHOOK_TEST'] ?? '') === 'true' ? 1 : 0;
$insert->execute([$headers['webhook-id'], $payload, $test]);

// 2xx at once, for a new message and a duplicate alike; the work happens in your worker.
// Events may arrive out of order: when it processes a row, re-read the latest state
// of what the event is about.
http_response_code(204);

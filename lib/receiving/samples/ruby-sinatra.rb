# Receives webhooks at POST /webhooks and verifies each one
# with the official Standard Webhooks library.
#   gem install sinatra rackup puma standardwebhooks
require "json"
require "set"
require "sinatra"
require "standardwebhooks"

# This endpoint's signing secret. In production, read it from your secret store.
WEBHOOK = StandardWebhooks::Webhook.new("{{SECRET}}")

# The webhook-id of every message already taken.
# In production: a table with a unique key on webhook-id.
PROCESSED = Set.new
LOCK = Mutex.new
JOBS = Queue.new # in production: your job queue

Thread.new do
  loop do
    id, event, test = JOBS.pop
    # Events may arrive out of order: before acting on one,
    # re-read the latest state of what it is about.
    puts "#{id}: processed#{test ? " (a test event)" : ""} #{event.to_json}"
  end
end

post "/webhooks" do
  # The exact bytes we signed: JSON parsed and serialised again would not verify.
  request.body.rewind
  payload = request.body.read
  begin
    # Checks the signature (either one, during a secret rotation)
    # and that webhook-timestamp is within 5 minutes of now.
    event = WEBHOOK.verify(payload, {
      "webhook-id" => request.env["HTTP_WEBHOOK_ID"],
      "webhook-timestamp" => request.env["HTTP_WEBHOOK_TIMESTAMP"],
      "webhook-signature" => request.env["HTTP_WEBHOOK_SIGNATURE"],
    })
  rescue StandardWebhooks::WebhookVerificationError => error
    logger.warn("refused: #{error.message}")
    halt 400, "invalid signature"
  end

  id = request.env["HTTP_WEBHOOK_ID"] # the same on every retry of one message
  first = LOCK.synchronize { PROCESSED.add?(id) }
  # A retry of what you already have: answer 2xx, or it is sent again.
  halt 204 unless first

  JOBS << [id, event, request.env["HTTP_WEBHOOK_TEST"] == "true"]
  status 204 # answer first, within seconds; the thread above does the work
end

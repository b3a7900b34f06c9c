# Reads a polling endpoint's messages and verifies each one
# with the official Standard Webhooks library.
#   gem install standardwebhooks
require "json"
require "net/http"
require "set"
require "standardwebhooks"

# This endpoint's signing secret. In production, read it from your secret store.
WEBHOOK = StandardWebhooks::Webhook.new("{{SECRET}}")
# A poll token of this endpoint (ept_...), shown once when it was made.
TOKEN = ENV.fetch("POLL_TOKEN")
POLL_URL = "{{POLL_URL}}"

# Where the last page ended. In production: stored with what you processed,
# and read back when the reader starts again.
cursor = nil
# The id of every message already taken: a page read again after a crash
# gives them again. In production: a table with a unique key on the id.
processed = Set.new

loop do
  uri = URI(POLL_URL)
  uri.query = URI.encode_www_form({ limit: 100, cursor: cursor }.compact)
  request = Net::HTTP::Get.new(uri)
  request["Authorization"] = "Bearer #{TOKEN}"
  # With nothing to read, the poll waits (up to 30 s) for the next message:
  # no sleep between polls.
  response = Net::HTTP.start(uri.host, uri.port, use_ssl: uri.scheme == "https", read_timeout: 60) { |http| http.request(request) }
  if response.code == "410"
    # The cursor is older than the messages kept: start again from the oldest.
    cursor = nil
    next
  end
  unless response.is_a?(Net::HTTPSuccess)
    warn "poll failed: #{response.code} #{response.body}"
    sleep 5
    next
  end
  page = JSON.parse(response.body)
  page["data"].each do |message|
    begin
      # `body` is the exact text the signature covers.
      event = WEBHOOK.verify(message["body"], message["headers"])
    rescue StandardWebhooks::WebhookVerificationError => e
      warn "#{message["id"]}: refused: #{e.message}"
      next
    end
    next if processed.include?(message["id"])

    processed.add(message["id"])
    puts "#{message["id"]}: processed #{message["event_type"]} #{event.to_json}"
  end
  cursor = page["cursor"]
end

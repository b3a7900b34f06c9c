/**
 * The receiver samples the portal shows, one file each in ./samples, shown as they are: the file a
 * test runs as a receiver is the text a customer copies. `{{SECRET}}` stands for the endpoint's
 * signing secret and is filled in where it is rendered (in the browser, which alone may read it).
 */
export const SECRET_PLACEHOLDER = "{{SECRET}}";

/** What a reader sees in place of a secret their link does not show. */
export const SECRET_STAND_IN = "whsec_YOUR_ENDPOINT_SECRET";

export const RECEIVING_SAMPLES = [
  { id: "node", file: "node-express.js", title: "Node.js (Express)" },
  { id: "python", file: "python-flask.py", title: "Python (Flask)" },
  { id: "go", file: "go.go", title: "Go (net/http)" },
  { id: "ruby", file: "ruby-sinatra.rb", title: "Ruby (Sinatra)" },
  { id: "php", file: "php.php", title: "PHP" },
] as const;

/**
 * The readers of a polling endpoint (docs/destinations.md#polling-endpoints), one per language the
 * receivers cover, in the same folder. `{{POLL_URL}}` stands for the endpoint's poll URL, filled in
 * where it is rendered (the browser knows the app's origin); the poll token comes from POLL_TOKEN.
 */
export const POLLING_SAMPLES = [
  { id: "node", file: "poll-node.js", title: "Node.js" },
  { id: "python", file: "poll-python.py", title: "Python" },
  { id: "go", file: "poll-go.go", title: "Go" },
  { id: "ruby", file: "poll-ruby.rb", title: "Ruby" },
  { id: "php", file: "poll-php.php", title: "PHP" },
] as const;

export const POLL_URL_PLACEHOLDER = "{{POLL_URL}}";

/** What a reader sees in place of the poll URL where no endpoint is named (the general guide). */
export const POLL_URL_STAND_IN = "https://webhooks.example.com/api/v1/endpoints/ep_YOUR_ENDPOINT/poll";

/** The sample as shown: the endpoint's secret where the link shows it, else a stand-in that says what goes there; a polling sample's URL too. */
export function fillSecret(code: string, secret: string | null, pollUrl: string | null = null): string {
  return code.replaceAll(SECRET_PLACEHOLDER, secret ?? SECRET_STAND_IN).replaceAll(POLL_URL_PLACEHOLDER, pollUrl ?? POLL_URL_STAND_IN);
}

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

/** The sample as shown: the endpoint's secret where the link shows it, else a stand-in that says what goes there. */
export function fillSecret(code: string, secret: string | null): string {
  return code.replaceAll(SECRET_PLACEHOLDER, secret ?? SECRET_STAND_IN);
}

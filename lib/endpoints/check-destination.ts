import type { Config } from "../config";
import { destinationOf, POLLING_KIND } from "../destinations";
import { MASKED_PASSWORD, sealTarget } from "../destinations/broker";
import { EndpointUrlForbiddenError, ValidationError } from "../errors";
import { urlPolicy } from "../webhooks/policy";
import { checkBrokerUrl } from "../webhooks/url-safety";
import { assertEndpointUrl } from "./check-url";

/**
 * What an endpoint's row holds for where it delivers: its kind, its `url` column, its stored target
 * (null for http); a broker kind also clears HTTP's own headers and svix_headers, which it never sends.
 */
export type DestinationColumns = { destination: string; url: string; target: Record<string, unknown> | null; headers?: Record<string, string>; svixHeaders?: boolean };

/** The endpoint as stored, for an update: what is kept when the caller does not change it. */
type Stored = { destination: string; url: string; target: unknown };

type Given = { kind?: string; url?: string; target?: Record<string, unknown>; headers?: Record<string, string>; svix_headers?: boolean };

const invalid = (path: string, message: string) => new ValidationError("The endpoint's destination is invalid.", [{ path, message }]);

/**
 * An endpoint's destination from a create or an update (`stored`): `kind` (http unless given, or
 * as stored) with `url` for http, or `target` for a broker kind — its fields checked by the kind's
 * own schema, its URL's host by the same rules as an endpoint URL's, its credentials sealed under
 * ENCRYPTION_KEY. Undefined when an update changes none of it.
 *
 * An update that sends back the target as it was shown (the URL's password masked) keeps the
 * stored credentials — but only for the very same URL: a masked password never goes to a host of
 * the caller's choosing, and a new URL brings its own.
 */
export function checkDestination(config: Config, given: Given, stored?: Stored): DestinationColumns | undefined {
  const kind = given.kind ?? stored?.destination ?? "http";
  // Deliveries already queued would have nowhere to go (or a poll would skip them): a kind chosen once.
  if (stored !== undefined && (kind === POLLING_KIND) !== (stored.destination === POLLING_KIND)) {
    throw invalid("kind", "an endpoint is a polling endpoint, or not, from its creation: create another endpoint instead");
  }
  if (kind === POLLING_KIND) return checkPolling(given, stored);
  const destination = destinationOf(kind);
  if (!destination) throw invalid("kind", `"${kind}" is not a destination kind`);
  const changesKind = stored !== undefined && kind !== stored.destination;

  if (!destination.broker) {
    if (given.target !== undefined) throw invalid("target", `an ${kind} endpoint has no target: its url and headers say where it goes`);
    if (given.url === undefined) {
      if (stored === undefined || changesKind) throw invalid("url", "Required");
      return undefined;
    }
    return { destination: kind, url: assertEndpointUrl(given.url, config), target: null };
  }

  if (given.url !== undefined) throw invalid("url", `a ${kind} endpoint's URL is its target's url`);
  if (given.headers !== undefined && Object.keys(given.headers).length > 0) throw invalid("headers", `custom headers go over HTTP only; a ${kind} message carries the Standard Webhooks headers`);
  if (given.svix_headers === true) throw invalid("svix_headers", `svix_headers is for http endpoints`);
  if (given.target === undefined) {
    if (stored === undefined || changesKind) throw invalid("target", "Required");
    return undefined;
  }
  const parsed = destination.broker.input.safeParse(given.target);
  if (!parsed.success) {
    throw new ValidationError(
      "The endpoint's target is invalid.",
      parsed.error.issues.map((issue) => ({ path: ["target", ...issue.path.map(String)].join("."), message: issue.message })),
    );
  }
  const input = parsed.data as { url: string } & Record<string, unknown>;
  const before = !changesKind && stored?.target ? (stored.target as { url?: string; url_ciphertext?: string }) : undefined;
  let sealed: Record<string, unknown>;
  if (before?.url_ciphertext && input.url === before.url) {
    sealed = { ...input, url: before.url, url_ciphertext: before.url_ciphertext };
  } else {
    const check = checkBrokerUrl(input.url, urlPolicy(config), destination.broker.schemes);
    if (!check.ok) {
      if (check.invalid) throw invalid("target.url", check.reason);
      throw new EndpointUrlForbiddenError(check.reason, "target.url");
    }
    if (decodeURIComponent(check.url.password) === MASKED_PASSWORD) throw invalid("target.url", "the password is masked: a changed URL needs the password itself");
    sealed = sealTarget(input, config.ENCRYPTION_KEY);
  }
  // What the claim parses at every attempt: a target its own schema would refuse never gets stored.
  const target = destination.target.parse(sealed) as Record<string, unknown>;
  return { destination: kind, url: destination.describe(target), target, headers: {}, svixHeaders: false };
}

/**
 * A polling endpoint has no address: nothing is sent, its consumer reads it (lib/polling). Its
 * `url` column is empty, and HTTP's own headers go, as a broker kind's do.
 */
function checkPolling(given: Given, stored?: Stored): DestinationColumns | undefined {
  if (given.url !== undefined) throw invalid("url", "a polling endpoint has no url: its consumer reads it at GET /endpoints/{id}/poll");
  if (given.target !== undefined) throw invalid("target", "a polling endpoint has no target");
  if (given.headers !== undefined && Object.keys(given.headers).length > 0) throw invalid("headers", "custom headers go over HTTP only; a polled message carries the Standard Webhooks headers");
  if (given.svix_headers === true) throw invalid("svix_headers", "svix_headers is for http endpoints");
  if (stored?.destination === POLLING_KIND) return undefined;
  return { destination: POLLING_KIND, url: "", target: null, headers: {}, svixHeaders: false };
}

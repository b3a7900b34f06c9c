import type { Config } from "../config";
import { EndpointUrlForbiddenError, ValidationError } from "../errors";
import { urlPolicy } from "../webhooks/policy";
import { checkEndpointUrl } from "../webhooks/url-safety";

/** Throws the API's error for a URL the policy refuses; returns the normalized URL. */
export function assertEndpointUrl(raw: string, config: Config): string {
  const check = checkEndpointUrl(raw, urlPolicy(config));
  if (check.ok) return check.url.toString();
  if (check.invalid) throw new ValidationError("The endpoint URL is invalid.", [{ path: "url", message: check.reason }]);
  throw new EndpointUrlForbiddenError(check.reason);
}

import type { UrlPolicy } from "./url-safety";

/**
 * The settings the URL policy is made of, as lib/config.ts parses them. Named here rather than
 * imported: the configuration parses ALLOWED_ENDPOINT_CIDRS with this folder's parseCidrList, so
 * this folder stays below it and never imports it back.
 */
export type UrlSettings = {
  ALLOW_HTTP_ENDPOINTS: boolean;
  ALLOW_PRIVATE_ENDPOINTS: boolean;
  ALLOWED_ENDPOINT_CIDRS: UrlPolicy["allowCidrs"];
};

/** The operator's URL policy, the one object both the create-time check and the egress guard read. */
export function urlPolicy(config: UrlSettings): UrlPolicy {
  return { allowHttp: config.ALLOW_HTTP_ENDPOINTS, allowPrivate: config.ALLOW_PRIVATE_ENDPOINTS, allowCidrs: config.ALLOWED_ENDPOINT_CIDRS };
}

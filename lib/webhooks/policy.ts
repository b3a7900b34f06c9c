import type { Config } from "../config";
import type { UrlPolicy } from "./url-safety";

/** The operator's URL policy, the one object both the create-time check and the egress guard read. */
export function urlPolicy(config: Config): UrlPolicy {
  return { allowHttp: config.ALLOW_HTTP_ENDPOINTS, allowPrivate: config.ALLOW_PRIVATE_ENDPOINTS, allowCidrs: config.ALLOWED_ENDPOINT_CIDRS };
}

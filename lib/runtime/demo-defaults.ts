/**
 * What the embedded demo allows unless the environment says otherwise: plain http, and loopback
 * only — never private, link-local or metadata addresses, so a demo started on a cloud
 * VM gives no API key a way into the metadata service. Its alert and auto-disable rules run on
 * minutes instead of an hour and five days, so a first look shows them at work. No load balancer
 * watches its readiness, so Ctrl-C stops the web app without the SIGTERM delay.
 */
export const DEMO_DEFAULTS = {
  ALLOW_HTTP_ENDPOINTS: "true",
  ALLOWED_ENDPOINT_CIDRS: "127.0.0.0/8,::1/128",
  ALERT_FAILING_AFTER: "30s",
  ENDPOINT_DISABLE_AFTER: "2m",
  SHUTDOWN_DELAY: "0",
} as const;

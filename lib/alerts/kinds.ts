import type { AlertKind } from "../db/schema/enums";

// The lists live beside their tables (lib/db/schema/enums.ts); re-exported here, a file the browser
// may import, for the dashboard's channel form and alert log.
export { ALERT_CHANNEL_KINDS, ALERT_KINDS, type AlertChannelKind, type AlertKind } from "../db/schema/enums";

/**
 * Kinds the throttle never holds back: each closes a state someone is waiting on. They still
 * carry the count of alerts the target did not get before them.
 */
export const ALWAYS_SENT_KINDS: readonly AlertKind[] = ["endpoint.disabled", "endpoint.recovered"];

/**
 * Kinds about a recovery run rather than an endpoint: one per run's end or stop, so the endpoint
 * throttle does not apply to them (a consumer-wide run has no one endpoint).
 */
export const RECOVERY_ALERT_KINDS: readonly AlertKind[] = ["recovery.finished", "recovery.paused"];

/** What POST /alert-channels/{id}/test sends; it bypasses the channel's kinds and the throttle. */
export const TEST_ALERT_KIND = "alert.test";
export type AlertLogKind = AlertKind | typeof TEST_ALERT_KIND;

/** The kinds a consumer's own alert_emails receive (issue 5): the customer hears of these too. */
export const CONSUMER_EMAIL_KINDS: readonly AlertKind[] = ["endpoint.failing", "endpoint.disabled", "endpoint.recovered"];

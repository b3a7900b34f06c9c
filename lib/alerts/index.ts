export * from "./schemas";
export { ALERT_KINDS, TEST_ALERT_KIND, type AlertKind } from "./kinds";
export { findAlertChannelRow, getAlertChannel, listAlertChannels, listAlerts } from "./queries";
export { createAlertChannel } from "./create-alert-channel";
export { updateAlertChannel } from "./update-alert-channel";
export { deleteAlertChannel } from "./delete-alert-channel";
export { testAlertChannel } from "./test-alert-channel";

import type { Task } from "graphile-worker";
import { fanOutAlerts } from "../../lib/alerts/fan-out-alerts";
import { SendAlertsPayload } from "../../lib/alerts/raise-alert";
import { recordAlertsSuppressed } from "../../lib/metrics/worker";
import { systemCtx } from "../../lib/open-ctx";

/** Raised alerts → throttle, alert log rows and one send_alert job per target (lib/alerts/fan-out-alerts.ts). */
export const sendAlerts: Task = async (payload, helpers) => {
  const result = await fanOutAlerts({ ctx: systemCtx(), alerts: SendAlertsPayload.parse(payload).alerts });
  recordAlertsSuppressed(result.suppressed);
  helpers.logger.debug(`alerts: ${result.sent} to send, ${result.suppressed} suppressed`);
};

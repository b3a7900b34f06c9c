import { fanOutAlerts } from "../../lib/alerts/fan-out-alerts";
import { SendAlertsPayload } from "../../lib/jobs/raise-alert";
import { TASKS } from "../../lib/jobs";
import { recordAlertsSuppressed } from "../../lib/metrics/worker";
import { systemCtx } from "../../lib/open-ctx";
import { defineJob } from "../define-job";

/** Raised alerts → throttle, alert log rows and one send_alert job per target (lib/alerts/fan-out-alerts.ts). */
export const sendAlerts = defineJob({
  name: TASKS.sendAlerts,
  schema: SendAlertsPayload,
  run: async ({ alerts }, helpers) => {
    const result = await fanOutAlerts({ ctx: systemCtx(), alerts });
    recordAlertsSuppressed(result.suppressed);
    helpers.logger.debug(`alerts: ${result.sent} to send, ${result.suppressed} suppressed`);
  },
});

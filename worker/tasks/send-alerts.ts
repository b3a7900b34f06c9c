import type { Task } from "graphile-worker";
import { z } from "zod";
import { getConfig } from "../../lib/config";
import { getSql } from "../../lib/db/client";
import { fanOutAlerts } from "../../lib/alerts/fan-out-alerts";
import { ALERT_KINDS } from "../../lib/alerts/kinds";

const Payload = z.object({
  alerts: z.array(
    z.object({ kind: z.enum(ALERT_KINDS), endpoint_id: z.string(), data: z.record(z.string(), z.unknown()), raised_at: z.string() }),
  ),
});

/** Raised alerts → throttle, alert log rows and one send_alert job per target (lib/alerts/fan-out-alerts.ts). */
export const sendAlerts: Task = async (payload, helpers) => {
  const result = await fanOutAlerts(getSql(), getConfig(), Payload.parse(payload).alerts);
  helpers.logger.debug(`alerts: ${result.sent} to send, ${result.suppressed} suppressed`);
};

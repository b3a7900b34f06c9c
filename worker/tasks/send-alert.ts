import { z } from "zod";
import { sendAlert as send } from "../../lib/alerts/send-alert";
import { TASKS } from "../../lib/jobs";
import { recordAlertSend } from "../../lib/metrics/worker";
import { systemCtx } from "../../lib/open-ctx";
import { defineJob } from "../define-job";

/** One try of one alert to one channel or recipient (lib/alerts/send-alert.ts). */
export const sendAlert = defineJob({
  name: TASKS.sendAlert,
  schema: z.object({ alert_id: z.string() }),
  run: async ({ alert_id: alertId }) => recordAlertSend(await send({ ctx: systemCtx(), alertId })),
});

import type { Task } from "graphile-worker";
import { z } from "zod";
import { sendAlert as send } from "../../lib/alerts/send-alert";
import { recordAlertSend } from "../../lib/metrics/worker";
import { systemCtx } from "../../lib/open-ctx";

const Payload = z.object({ alert_id: z.string() });

/** One try of one alert to one channel or recipient (lib/alerts/send-alert.ts). */
export const sendAlert: Task = async (payload) => {
  recordAlertSend(await send({ ctx: systemCtx(), alertId: Payload.parse(payload).alert_id }));
};

import { z } from "zod";
import { getConfig } from "../../lib/config";
import { getSql } from "../../lib/db/client";
import { QUEUE_KINDS } from "../../lib/db/schema/messages";
import { TASKS, wakeRecoveries } from "../../lib/jobs";
import { advanceRecoveries as advance, feedPolicy } from "../../lib/recoveries/advance-recoveries";
import { inSpan } from "../../lib/telemetry/tracing";
import { defineJob } from "../define-job";
import { wakePump } from "../state";

/** One tick of the recovery feeder; it schedules the next while a run is active. */
export const advanceRecoveries = defineJob({ name: TASKS.advanceRecoveries, schema: z.object({}), run: async () => {
  const config = getConfig();
  const sql = getSql();
  const { active, queued } = await inSpan("recovery.tick", {}, async (span) => {
    const tick = await advance(sql, feedPolicy(config));
    span?.setAttributes({ "webhook_admin.recovery.active": tick.active, "webhook_admin.recovery.queued": tick.queued });
    return tick;
  });
  // What was queued here is claimed here at once; the NOTIFY brings in the other workers.
  if (queued > 0) wakePump([QUEUE_KINDS.recovery]);
  if (active) await wakeRecoveries(sql, config.RECOVERY_TICK);
} });

import { z } from "zod";
import { kindsOfWake, TASKS } from "../../lib/jobs";
import { defineJob } from "../define-job";
import { wakePump } from "../state";

/**
 * A wake-up job (a retry or parked delivery coming due, a lease running out, the sweep): the pump
 * claims in its own loop for as long as due work remains, as it does for ingest's NOTIFY. `kinds`:
 * the queue kinds coming due, when the job names them (lib/deliveries/wake-deliveries.sql), so only
 * the lanes serving them claim; without, every lane.
 */
export const deliverDue = defineJob({
  name: TASKS.deliverDue,
  schema: z.object({ kinds: z.array(z.number().int()).optional() }),
  run: async ({ kinds }) => wakePump(kindsOfWake(kinds?.join(","))),
});

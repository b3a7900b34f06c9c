import { z } from "zod";
import { TASKS } from "../../lib/jobs";
import { defineJob } from "../define-job";
import { wakePump } from "../state";

/**
 * A wake-up job (a retry or parked delivery coming due, a lease running out, the sweep): the pump
 * claims in its own loop for as long as due work remains, as it does for ingest's NOTIFY.
 */
export const deliverDue = defineJob({
  name: TASKS.deliverDue,
  schema: z.object({}),
  run: async () => wakePump(),
});

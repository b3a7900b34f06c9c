import { z } from "zod";
import { TASKS, wakePurge } from "../../lib/jobs";
import { systemCtx } from "../../lib/open-ctx";
import { failPayloadPurge, purgePayloads as purge } from "../../lib/retention/purge-payloads";
import { defineJob } from "../define-job";
import { workerState } from "../state";

// A job purges for this long, then hands over to its successor: a worker stopping waits for at
// most one slice, and other jobs get their turn.
const SLICE_MS = 10_000;

/**
 * One slice of a consumer's payload purge (lib/retention/purge-payloads.ts), then its successor from
 * where it got to. A slice that fails its last attempt leaves the purge `failed`, not `running`.
 */
export const purgePayloads = defineJob({
  name: TASKS.purgePayloads,
  schema: z.object({ purge_id: z.string(), after: z.object({ at: z.string(), id: z.string() }).nullable().default(null) }),
  run: async ({ purge_id: purgeId, after }) => {
    const ctx = systemCtx();
    const result = await purge(ctx, { purgeId, deadline: workerState.stopping ? Date.now() : Date.now() + SLICE_MS, after });
    if (!result.done) await wakePurge(ctx.sql, purgeId, result.after);
  },
  giveUp: ({ purge_id: purgeId }) => failPayloadPurge({ ctx: systemCtx(), purgeId }),
});

import type { JobHelpers, Task } from "graphile-worker";
import type { z } from "zod";
import { TASKS } from "../lib/jobs";
import { logger } from "../lib/logger";

export type JobName = (typeof TASKS)[keyof typeof TASKS];

/** A job the worker runs: its name (TASKS, which the enqueuers in lib/ write), its payload's schema, what it does. */
export type JobDefinition = { readonly name: JobName; readonly task: Task };

/**
 * One job, defined once: the payload is checked against `schema` before `run` sees it (a payload
 * graphile-worker cannot parse fails the job, which graphile then retries and gives up on, as for
 * any error). `giveUp`, when given, runs when `run` fails on the job's last attempt — graphile
 * counts an attempt when it takes the job, so `attempts` has reached `max_attempts` and no retry
 * follows — for a job whose work must then read as failed rather than stay in progress for ever.
 * worker/jobs.ts lists every definition; the runtime registers that list and nothing else
 * (tests/operations/jobs.test.ts holds both).
 */
export function defineJob<S extends z.ZodType>(definition: {
  name: JobName;
  schema: S;
  run: (payload: z.infer<S>, helpers: JobHelpers) => Promise<void>;
  giveUp?: (payload: z.infer<S>, error: unknown) => Promise<void>;
}): JobDefinition {
  const { name, schema, run, giveUp } = definition;
  return {
    name,
    task: async (raw, helpers) => {
      const payload = schema.parse(raw ?? {});
      try {
        await run(payload, helpers);
      } catch (error) {
        if (giveUp && helpers.job.attempts >= helpers.job.max_attempts) {
          // The job's own error is what graphile records; a giveUp that fails too is only logged.
          await giveUp(payload, error).catch((cause: unknown) => logger.error("job gave up, and recording it failed", { task: name, job_id: helpers.job.id, error: String(cause) }));
        }
        throw error;
      }
    },
  };
}

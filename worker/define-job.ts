import type { JobHelpers, Task } from "graphile-worker";
import type { z } from "zod";
import { TASKS } from "../lib/jobs";

export type JobName = (typeof TASKS)[keyof typeof TASKS];

/** A job the worker runs: its name (TASKS, which the enqueuers in lib/ write), its payload's schema, what it does. */
export type JobDefinition = { readonly name: JobName; readonly task: Task };

/**
 * One job, defined once: the payload is checked against `schema` before `run` sees it (a payload
 * graphile-worker cannot parse fails the job, which graphile then retries and gives up on, as for
 * any error). worker/jobs.ts lists every definition; the runtime registers that list and nothing
 * else (tests/operations/jobs.test.ts holds both).
 */
export function defineJob<S extends z.ZodType>(definition: {
  name: JobName;
  schema: S;
  run: (payload: z.infer<S>, helpers: JobHelpers) => Promise<void>;
}): JobDefinition {
  const { name, schema, run } = definition;
  return { name, task: async (payload, helpers) => run(schema.parse(payload ?? {}), helpers) };
}

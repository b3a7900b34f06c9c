import type { TaskList } from "graphile-worker";
import type { JobDefinition } from "./define-job";
import { advanceRecoveries } from "./tasks/advance-recoveries";
import { deliverDue } from "./tasks/deliver-due";
import { eraseConsumer } from "./tasks/erase-consumer";
import { purgePayloads } from "./tasks/purge-payloads";
import { sendAlert } from "./tasks/send-alert";
import { sendAlerts } from "./tasks/send-alerts";
import { sweep } from "./tasks/sweep";

/** Every job the worker runs: the one registry (a job in worker/tasks/ but not here is never run). */
export const JOBS: readonly JobDefinition[] = [deliverDue, sweep, sendAlerts, sendAlert, advanceRecoveries, eraseConsumer, purgePayloads];

export function taskListOf(jobs: readonly JobDefinition[]): TaskList {
  return Object.fromEntries(jobs.map((job) => [job.name, job.task]));
}

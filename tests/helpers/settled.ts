import { getSql } from "../../lib/db/client";
import { waitFor } from "./receiver";

/**
 * Resolves once everything an endpoint's past deliveries can still cause has happened: none of its
 * deliveries is pending (an outcome raises its alerts in the same transaction), no alert fan-out
 * job is waiting or running, and none of its alerts is still being sent. Then "no more alerts came"
 * is a fact to assert, not a guess made by sleeping.
 */
export async function settled(endpointId: string, options: { timeout?: number } = {}): Promise<void> {
  await waitFor(
    async () => {
      const [row] = await getSql()<{ pending: number; fanOuts: number; sending: number }[]>`
        select (select count(*) from delivery_queue where endpoint_id = ${endpointId})::int as pending,
               (select count(*) from graphile_worker.jobs where task_identifier = 'send_alerts')::int as "fanOuts",
               (select count(*) from alerts where endpoint_id = ${endpointId} and status = 'pending')::int as sending`;
      return row!.pending === 0 && row!.fanOuts === 0 && row!.sending === 0;
    },
    { timeout: options.timeout ?? 30_000, what: `endpoint ${endpointId} to settle` },
  );
}

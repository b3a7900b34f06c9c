import type { Sql } from "../lib/db/client";
import type { DeliveryPump } from "./delivery-pump";
import { WAKE_CHANNEL } from "../lib/jobs";

/**
 * Turns the NOTIFY of ingest (and of claims leaving due work behind) into a claim by this
 * process's pump, however many arrive meanwhile; every (re)connection also wakes it once, for
 * anything committed while this worker was not listening.
 */
export async function listenForDueWork(sql: Sql, pump: DeliveryPump): Promise<{ stop: () => Promise<void> }> {
  const wake = () => pump.wake();
  const subscription = await sql.listen(WAKE_CHANNEL, wake, wake);
  return { stop: () => subscription.unlisten() };
}

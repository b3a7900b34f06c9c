import type { Sql } from "../lib/db/client";
import { kindsOfWake, WAKE_CHANNEL } from "../lib/jobs";
import { wakePump } from "./state";

/**
 * Turns the NOTIFY of ingest (and of claims leaving due work behind) into a claim by this
 * process's pump, however many arrive meanwhile; every (re)connection also wakes it once, for
 * anything committed while this worker was not listening.
 */
export async function listenForDueWork(sql: Sql): Promise<{ stop: () => Promise<void> }> {
  // A (re)connection wakes every lane: whatever came due meanwhile, of any kind.
  const subscription = await sql.listen(WAKE_CHANNEL, (payload) => wakePump(kindsOfWake(payload)), () => wakePump());
  return { stop: () => subscription.unlisten() };
}

import { getSql } from "../../lib/db/client";
import { newId } from "../../lib/ids";

/**
 * An attempt in the log, as the worker writes one, for a message to one of its endpoints: for
 * tests that walk every route (one reads an attempt by id) without running a worker.
 */
export async function loggedAttempt(messageId: string, endpointId: string): Promise<string> {
  const sql = getSql();
  const [delivery] = await sql<{ id: string; consumer_id: string }[]>`
    select id, consumer_id from deliveries where message_id = ${messageId} and endpoint_id = ${endpointId}`;
  if (!delivery) throw new Error(`no delivery of ${messageId} to ${endpointId}`);
  const id = newId("attempt");
  await sql`
    insert into attempts (id, delivery_id, message_id, endpoint_id, consumer_id, attempt_number, trigger, success, status_code, duration_ms, url)
    values (${id}, ${delivery.id}, ${messageId}, ${endpointId}, ${delivery.consumer_id}, 1, 'scheduled', true, 200, 12, 'http://127.0.0.1:9/hook')`;
  return id;
}

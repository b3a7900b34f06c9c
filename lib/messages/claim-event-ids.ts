import type { SqlOrTx } from "../db/client";
import { ConflictError } from "../errors";
import type { PreparedMessage, Refusal } from "./ingest-types";

/**
 * The Svix API's rule (`uniqueEventId`): takes each message's event id for its consumer until
 * `expiresAt`, in the write's transaction (a row of message_event_ids, whose key makes two calls
 * racing for one id take turns). A message whose id is held and not yet expired, or given twice in
 * this call, is refused (409 `event_id_taken`). Returns the messages left to write.
 */
export async function claimEventIds(tx: SqlOrTx, rows: PreparedMessage[], expiresAt: Date): Promise<{ rows: PreparedMessage[]; refused: Refusal[] }> {
  const refused = new Set<PreparedMessage>();
  const firsts = new Map<string, PreparedMessage>();
  for (const row of rows) {
    if (row.message.event_id === null) continue;
    const key = JSON.stringify([row.message.consumer_id, row.message.event_id]);
    if (firsts.has(key)) refused.add(row);
    else firsts.set(key, row);
  }
  if (firsts.size > 0) {
    const claiming = [...firsts.values()];
    const claimed = await tx<{ message_id: string }[]>`
      insert into message_event_ids (consumer_id, event_id, message_id, expires_at)
      select c, e, m, ${expiresAt}::timestamptz
      from unnest(${claiming.map((r) => r.message.consumer_id)}::text[], ${claiming.map((r) => r.message.event_id!)}::text[],
                  ${claiming.map((r) => r.message.id)}::text[]) as k(c, e, m)
      order by c, e
      on conflict (consumer_id, event_id) do update set message_id = excluded.message_id, expires_at = excluded.expires_at
      where message_event_ids.expires_at <= now()
      returning message_id`;
    const taken = new Set(claimed.map((c) => c.message_id));
    for (const row of claiming) if (!taken.has(row.message.id)) refused.add(row);
  }
  if (refused.size === 0) return { rows, refused: [] };
  return {
    rows: rows.filter((row) => !refused.has(row)),
    refused: [...refused].map((row) => ({
      index: row.index,
      error: new ConflictError("event_id_taken", `A message with event_id "${row.message.event_id}" exists for this consumer.`),
    })),
  };
}

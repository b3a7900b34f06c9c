import type { Sql } from "../db/client";

/**
 * The traceparents ingest stored with these messages (messages.traceparent, written only while the
 * web app traces), by message id: what a claimed batch's attempt spans link to. Read only while the
 * worker traces (lib/telemetry/delivery-spans.ts), one query per claim.
 */
export async function readIngestTraceparents(sql: Sql, messageIds: string[]): Promise<Map<string, string>> {
  const rows = await sql<{ id: string; traceparent: string }[]>`
    select id, traceparent from messages where id = any(${messageIds}::text[]) and traceparent is not null`;
  return new Map(rows.map((row) => [row.id, row.traceparent]));
}

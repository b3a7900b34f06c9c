import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { SqlOrTx } from "./client";
import { QUEUE_KINDS } from "./schema/messages";

/**
 * Every SQL function of ours, each in a file beside the code that calls it, applied after the
 * migrations on every start as CREATE OR REPLACE: a function's live body is its file's (a migration
 * only makes the first version, where a schema object needs it), so changing one is a diff of its
 * own file. In order: a file's functions come after the types and functions they use.
 * tests/operations/sql-functions.test.ts checks that the database holds no function of ours that
 * these files do not define, with the files' bodies.
 */
export const FUNCTION_FILES = [
  "../deliveries/wake-deliveries.sql",
  "../deliveries/lines.sql",
  "../deliveries/track-failed-delivery.sql",
  "../endpoints/signing-secrets.sql",
  "../endpoints/cancel-pending.sql",
  "../messages/payload-jsonb.sql",
  "../stats/latency-bucket.sql",
  // The claim: its row types, its stages, then the function that runs them in one call.
  "../deliveries/claim/types.sql",
  "../deliveries/claim/scan-due.sql",
  "../deliveries/claim/run-budgets.sql",
  "../deliveries/claim/apply-limits.sql",
  "../deliveries/claim/log-run-sends.sql",
  "../deliveries/claim/drop-stopped.sql",
  "../deliveries/claim/lease.sql",
  "../deliveries/claim/park.sql",
  "../deliveries/claim-due-deliveries.sql",
].map((file) => fileURLToPath(new URL(file, import.meta.url)));

/**
 * The queue's kinds by name for SQL, made from QUEUE_KINDS so TypeScript and SQL share one
 * vocabulary: `webhook_admin_queue_kind('recovery')`. Immutable, so a call with a constant is
 * folded to the number when the statement is planned — the same plan as the literal.
 */
export function queueKindFunction(): string {
  const cases = Object.entries(QUEUE_KINDS)
    .map(([name, kind]) => `WHEN '${name}' THEN ${kind}`)
    .join(" ");
  return `CREATE OR REPLACE FUNCTION webhook_admin_queue_kind(p_name text) RETURNS smallint
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT (CASE p_name ${cases} END)::smallint $$`;
}

export async function applySqlFunctions(sql: SqlOrTx): Promise<void> {
  // First: the files' functions call it.
  await sql.unsafe(queueKindFunction());
  for (const file of FUNCTION_FILES) {
    await sql.unsafe(await readFile(file, "utf8"));
  }
}

import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { SqlOrTx } from "./client";
import { QUEUE_KINDS } from "./schema/messages";

/**
 * SQL functions whose source lives beside the code that calls them, applied after the migrations
 * on every start as CREATE OR REPLACE, so that changing one is a diff of its own file.
 */
const FUNCTION_FILES = ["../deliveries/claim-due-deliveries.sql", "../endpoints/cancel-pending.sql"];

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
    await sql.unsafe(await readFile(fileURLToPath(new URL(file, import.meta.url)), "utf8"));
  }
}

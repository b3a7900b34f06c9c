import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { SqlOrTx } from "./client";

/**
 * SQL functions whose source lives beside the code that calls them, applied after the migrations
 * on every start as CREATE OR REPLACE, so that changing one is a diff of its own file.
 */
const FUNCTION_FILES = ["../deliveries/claim-due-deliveries.sql", "../endpoints/cancel-pending.sql"];

export async function applySqlFunctions(sql: SqlOrTx): Promise<void> {
  for (const file of FUNCTION_FILES) {
    await sql.unsafe(await readFile(fileURLToPath(new URL(file, import.meta.url)), "utf8"));
  }
}

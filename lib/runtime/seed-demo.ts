import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { createApiKey } from "../api-keys";
import type { DB, Executor } from "../db/client";
import { createOperator } from "../operators/create-operator";

/** Whether anyone can get in yet: an operator login or an API key exists. */
export async function hasCredentials(db: Executor): Promise<boolean> {
  const [row] = await db.execute<{ has: boolean }>(sql`select exists(select 1 from operators) or exists(select 1 from api_keys) as has`);
  return row?.has === true;
}

/**
 * The embedded demo's first start: one operator login and one API key, returned in clear so
 * `npm start` can print them once. Returns null when the database already has either. Never run
 * against DATABASE_URL, whose process log a production log store keeps.
 */
export async function seedDemo(db: DB): Promise<{ email: string; password: string; apiKey: string } | null> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(727002)`);
    if (await hasCredentials(tx)) return null;
    const email = "admin@example.com";
    const password = randomBytes(9).toString("base64url");
    await createOperator({ ctx: { actor: { type: "system" }, db: tx }, input: { email, password, role: "admin" } });
    const key = await createApiKey(tx, { name: "demo" });
    return { email, password, apiKey: key.key };
  });
}

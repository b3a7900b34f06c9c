import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { createApiKey } from "../api-keys";
import { inSavepoint, inTransaction, type Ctx } from "../context";
import { seedDemoConsumer } from "../demo/seed-demo-consumer";
import { createOperator } from "../operators/create-operator";

/** Whether anyone can get in yet: an operator login or an API key exists. */
export async function hasCredentials(ctx: Ctx): Promise<boolean> {
  const { db } = ctx;
  const [row] = await db.execute<{ has: boolean }>(sql`select exists(select 1 from operators) or exists(select 1 from api_keys) as has`);
  return row?.has === true;
}

export type DemoSeed = { email: string; password: string; apiKey: string; consumer: string | null; consumerError: string | null };

/**
 * The embedded demo's first start: one operator login and one API key, returned in clear so
 * `npm start` can print them once, and the demo consumer with its endpoints on the app's own
 * receivers (its traffic is sent once the app answers: sendDemoTraffic). Returns null when the
 * database already has a login or a key. Never run against DATABASE_URL, whose process log a
 * production log store keeps.
 */
export async function seedDemo({ ctx: root, appUrl }: { ctx: Ctx; appUrl: string }): Promise<DemoSeed | null> {
  return inTransaction(root, async (ctx) => {
    const tx = ctx.db;
    await tx.execute(sql`select pg_advisory_xact_lock(727002)`);
    if (await hasCredentials(ctx)) return null;
    const email = "admin@example.com";
    const password = randomBytes(9).toString("base64url");
    await createOperator({ ctx, input: { email, password, role: "admin" } });
    const key = await createApiKey({ ctx, input: { name: "demo" } });
    // In a savepoint: an APP_URL the demo may not send to (a private address, say) costs the demo
    // its traffic, not its login.
    const demo = await inSavepoint(ctx, (inner) => seedDemoConsumer({ ctx: inner, appUrl }))
      .then((seeded) => ({ consumer: seeded.consumer, consumerError: null }))
      .catch((error: unknown) => ({ consumer: null, consumerError: error instanceof Error ? error.message : String(error) }));
    return { email, password, apiKey: key.key, ...demo };
  });
}

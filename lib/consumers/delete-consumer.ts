import { eq } from "drizzle-orm";
import type { Ctx } from "../context";
import { consumers } from "../db/schema";
import { findConsumer } from "./queries";

/** Deletes the consumer with its endpoints, messages and pending deliveries. */
export async function deleteConsumer({ ctx, ref }: { ctx: Ctx; ref: string }) {
  const current = await findConsumer(ctx, ref);
  await ctx.db.delete(consumers).where(eq(consumers.id, current.id));
}

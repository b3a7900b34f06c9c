import { eq } from "drizzle-orm";
import type { Ctx } from "../context";
import { endpoints } from "../db/schema";
import { findEndpointRow } from "./queries";

/** Deletes the endpoint with its secrets and deliveries; its attempt log stays until retention. */
export async function deleteEndpoint({ ctx, id }: { ctx: Ctx; id: string }) {
  await findEndpointRow(ctx, id);
  await ctx.db.delete(endpoints).where(eq(endpoints.id, id));
}

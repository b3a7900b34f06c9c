import type { Ctx } from "../context";
import { findEndpointRow } from "./queries";
import { currentSecret } from "./secrets";

export async function getEndpointSecret({ ctx, id }: { ctx: Ctx; id: string }) {
  await findEndpointRow(ctx, id);
  return { key: await currentSecret(ctx.db, id) };
}

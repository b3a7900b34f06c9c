import { getConfig } from "../config";
import type { Ctx } from "../context";
import { transactionWithRetry } from "../db/retry";
import { findEndpointRow } from "./queries";
import { toEndpoint } from "./schemas";
import { setEndpointState } from "./set-endpoint-state";

export async function disableEndpoint({ ctx, id }: { ctx: Ctx; id: string }) {
  await findEndpointRow(ctx, id);
  const row = await transactionWithRetry(ctx.db, (tx) => setEndpointState(tx, id, { state: "disabled", reason: "disabled by request" }));
  return toEndpoint(row, getConfig().ENDPOINT_MAX_CONCURRENCY);
}

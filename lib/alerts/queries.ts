import { eq, gte, inArray, ne } from "drizzle-orm";
import type { Ctx } from "../context";
import { consumerRefs, notErasing } from "../consumers/queries";
import { endpointRefs } from "../endpoints/queries";
import { alertChannels, alerts } from "../db/schema";
import { rowsById } from "../db/by-id";
import { selectPage } from "../db/keyset";
import { NotFoundError } from "../errors";
import { toPage, type PageQuery } from "../pagination";
import { toAlert, toAlertChannel, type AlertChannelRef, type ListAlertsQuery } from "./schemas";

// Alert channels and the alert log are the operators' (API key or dashboard): a portal session
// never reaches these verbs, so there is no consumer scope to apply.

export async function findAlertChannelRow(ctx: Ctx, id: string) {
  const [row] = await ctx.db.select().from(alertChannels).where(eq(alertChannels.id, id)).limit(1);
  if (!row) throw new NotFoundError("alert channel", id);
  return row;
}

export async function getAlertChannel(ctx: Ctx, id: string) {
  return toAlertChannel(await findAlertChannelRow(ctx, id));
}

export async function listAlertChannels(ctx: Ctx, query: PageQuery) {
  const rows = await selectPage(ctx.db, alertChannels, query);
  return toPage(rows, query.limit, toAlertChannel);
}

/** The alert log, newest first. Rows still being sent (`pending`) appear once they have an outcome. */
export async function listAlerts(ctx: Ctx, query: PageQuery & ListAlertsQuery) {
  const rows = await selectPage(ctx.db, alerts, query, [
    ne(alerts.status, "pending"),
    // A consumer being erased is gone from the list at once, as it is from every read.
    await notErasing(ctx, alerts.consumerId, { nullable: true }),
    query.endpoint_id ? eq(alerts.endpointId, query.endpoint_id) : undefined,
    query.kind ? eq(alerts.kind, query.kind) : undefined,
    query.since ? gte(alerts.createdAt, query.since) : undefined,
  ]);
  // Names for the page's distinct endpoints, consumers and channels, each by primary key.
  const page = rows.slice(0, query.limit);
  const [endpoints, consumers, channels] = await Promise.all([
    endpointRefs(ctx, page.map((a) => a.endpointId)),
    consumerRefs(ctx, page.map((a) => a.consumerId)),
    channelRefs(ctx, page.map((a) => a.channelId)),
  ]);
  return toPage(rows, query.limit, (row) =>
    toAlert(row, {
      endpoint: (row.endpointId && endpoints.get(row.endpointId)) || null,
      consumer: (row.consumerId && consumers.get(row.consumerId)) || null,
      channel: (row.channelId && channels.get(row.channelId)) || null,
    }),
  );
}

/** The alert channels among `ids` that exist, by id. */
export function channelRefs(ctx: Ctx, ids: Iterable<string | null | undefined>): Promise<Map<string, AlertChannelRef>> {
  return rowsById(ids, (wanted) => ctx.db.select({ id: alertChannels.id, name: alertChannels.name, kind: alertChannels.kind }).from(alertChannels).where(inArray(alertChannels.id, wanted)));
}

import { and, eq, gte, ne } from "drizzle-orm";
import type { Ctx } from "../context";
import { alertChannels, alerts } from "../db/schema";
import { keysetBefore, newestFirst } from "../db/keyset";
import { NotFoundError } from "../errors";
import { decodeCursor, toPage, type PageQuery } from "../pagination";
import { toAlert, toAlertChannel, type ListAlertsQuery } from "./schemas";

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
  const cursor = decodeCursor(query.cursor);
  const rows = await ctx.db
    .select()
    .from(alertChannels)
    .where(cursor ? keysetBefore(alertChannels.createdAt, alertChannels.id, cursor) : undefined)
    .orderBy(...newestFirst(alertChannels.createdAt, alertChannels.id))
    .limit(query.limit + 1);
  return toPage(rows, query.limit, toAlertChannel);
}

/** The alert log, newest first. Rows still being sent (`pending`) appear once they have an outcome. */
export async function listAlerts(ctx: Ctx, query: PageQuery & ListAlertsQuery) {
  const cursor = decodeCursor(query.cursor);
  const rows = await ctx.db
    .select()
    .from(alerts)
    .where(
      and(
        ne(alerts.status, "pending"),
        cursor ? keysetBefore(alerts.createdAt, alerts.id, cursor) : undefined,
        query.endpoint_id ? eq(alerts.endpointId, query.endpoint_id) : undefined,
        query.kind ? eq(alerts.kind, query.kind) : undefined,
        query.since ? gte(alerts.createdAt, query.since) : undefined,
      ),
    )
    .orderBy(...newestFirst(alerts.createdAt, alerts.id))
    .limit(query.limit + 1);
  return toPage(rows, query.limit, toAlert);
}

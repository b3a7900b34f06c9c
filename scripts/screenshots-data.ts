/**
 * The data lifecycle's screens for `npm run screenshots` (scripts/screenshots.ts): Data & retention
 * and a message's Delete payload, before and after.
 */
import { sql } from "drizzle-orm";
import type { Page } from "playwright-core";
import { createConsumer } from "../lib/consumers";
import { deleteConsumer } from "../lib/retention/delete-consumer";
import type { Ctx } from "../lib/context";
import { sweep } from "../lib/maintenance/sweep";
import { expungePayload } from "../lib/retention/expunge-payload";

type Shoot = (page: Page, name: string) => Promise<void>;
export type DataSample = { expunged: string; intact: string };

/**
 * A message of acme's with its payload expunged and one to expunge; umbrella deleted (and erased
 * within the request); a day of earlier sweeps' work, as a sweep would have recorded it after an
 * upgrade onto an install with a backlog; and, as the record of one still going, a large
 * consumer's background erasure (a consumer that is not in this sample, so nothing moves it).
 */
export async function seedData(ctx: Ctx): Promise<DataSample> {
  const messages = await ctx.db.execute<{ id: string }>(sql`
    select m.id from messages m join consumers c on c.id = m.consumer_id where c.uid = 'acme' and m.event_type = 'invoice.paid'
    order by m.created_at desc limit 2`);
  const [expunged, intact] = [messages[0]!.id, messages[1]!.id];
  await expungePayload({ ctx, messageId: expunged });
  await createConsumer({ ctx, input: { uid: "soylent", name: "Soylent", alert_emails: ["ops@soylent.example.com"] } });
  await deleteConsumer({ ctx, ref: "soylent" });
  await ctx.db.execute(sql`
    insert into sweep_runs (started_at, finished_at, duration_ms, removed, more)
    select now() - make_interval(mins => 60 - m), now() - make_interval(mins => 60 - m) + make_interval(secs => d / 1000.0), d, r::jsonb, m < 3
    from (values
      (0, 30012, '{"messages": 58110, "deliveries": 69732, "attempts": 287410, "failed_deliveries": 412}'),
      (1, 30004, '{"messages": 57402, "deliveries": 68880, "attempts": 284011, "failed_deliveries": 377}'),
      (2, 30009, '{"messages": 56980, "deliveries": 68376, "attempts": 281203, "failed_deliveries": 391}'),
      (3, 11870, '{"messages": 21544, "deliveries": 25852, "attempts": 106830, "failed_deliveries": 140, "recovery_items": 1200, "recoveries": 3}'),
      (4, 412, '{"messages": 702, "deliveries": 842, "attempts": 3466, "attempt_stats": 5000}'),
      (5, 388, '{"messages": 688, "deliveries": 825, "attempts": 3390, "attempt_stats": 1411}')
    ) as v(m, d, r)`);
  await sweep({ ctx });
  // The planner's row counts, which the page shows beside each table's size.
  await ctx.db.execute(sql`analyze`);
  await ctx.db.execute(sql`
    insert into erasures (id, consumer_id, messages_total, counts, requested_by_type, settles_at, started_at)
    values ('era_sample_background', 'con_01jb8sample0hooli', 1840221,
            '{"messages": 733104, "deliveries": 879720, "delivery_queue": 1204, "failed_deliveries": 2210, "attempts": 3512982}'::jsonb,
            'api_key', now() + interval '1 day', now() - interval '4 minutes')`);
  return { expunged, intact };
}

export async function shootData(page: Page, locale: string, shoot: Shoot, sample: DataSample): Promise<void> {
  // The whole page: its four cards are taller than the usual window.
  const viewport = page.viewportSize();
  await page.setViewportSize({ width: 1280, height: 1700 });
  await page.goto("/data");
  await page.getByTestId("sweep").first().waitFor();
  await page.getByTestId("erasure").first().waitFor();
  await shoot(page, `${locale}-data`);
  if (viewport) await page.setViewportSize(viewport);
  await page.goto(`/messages/${sample.expunged}`);
  await page.getByTestId("payload-expunged").waitFor();
  await shoot(page, `${locale}-message-expunged`);
  await page.goto(`/messages/${sample.intact}`);
  await page.getByTestId("payload").locator("pre").waitFor();
  const dialog = page.getByRole("alertdialog");
  for (let i = 0; i < 10 && !(await dialog.isVisible()); i++) {
    await page.getByRole("button", { name: locale === "ja" ? "ペイロードを削除" : "Delete payload" }).click();
    await dialog.waitFor({ timeout: 2_000 }).catch(() => {});
  }
  await shoot(page, `${locale}-message-expunge-confirm`);
  await page.keyboard.press("Escape");
}

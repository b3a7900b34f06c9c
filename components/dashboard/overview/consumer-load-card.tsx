"use client";

import { Gauge, Hourglass } from "lucide-react";
import Link from "next/link";
import { useFormatter, useNow, useTranslations } from "next-intl";
import { Bar, BarChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { ConsumerLoad } from "@/lib/deliveries/schemas";
import { Card } from "../../ui/card";
import { EmptyNote } from "../../ui/empty-note";
import { TBody, THead, Table, Td, Th, Tr } from "../../ui/table";

const consumerHref = (id: string) => `/consumers/${encodeURIComponent(id)}`;

/**
 * Who is using the engine: the consumers whose due work has waited longest, and each consumer's
 * share of the attempts of the last minutes (lib/deliveries/read-consumer-load.ts). With fair
 * claiming a long wait means the consumer's own endpoints hold it back (caps, rate limits, an
 * open circuit), not another consumer's burst.
 */
export function ConsumerLoadCard({ load }: { load: ConsumerLoad }) {
  const t = useTranslations("overview.load");
  const format = useFormatter();
  const now = useNow({ updateInterval: 30_000 });
  const shares = load.shares.consumers.map((row) => ({ name: row.consumer.name, id: row.consumer.id, share: row.share, attempts: row.attempts }));
  return (
    <Card className="mt-4 p-4" data-testid="consumer-load">
      <h2 className="text-sm font-semibold">{t("title")}</h2>
      <p className="mt-1 text-sm text-muted-foreground">{t("description")}</p>
      <div className="mt-4 grid gap-6 lg:grid-cols-2">
        <section aria-labelledby="load-waiting">
          <h3 id="load-waiting" className="mb-2 text-xs font-medium text-muted-foreground uppercase">
            {t("waitingTitle")}
          </h3>
          {load.waiting.length === 0 ? (
            <EmptyNote icon={Hourglass} title={t("waitingEmptyTitle")} body={t("waitingEmptyBody")} testId="load-waiting-empty" />
          ) : (
            <Table>
              <THead>
                <Tr>
                  <Th className="px-2">{t("consumer")}</Th>
                  <Th className="px-2 text-right">{t("due")}</Th>
                  <Th className="px-2 text-right">{t("oldest")}</Th>
                </Tr>
              </THead>
              <TBody>
                {load.waiting.map((row) => (
                  <Tr key={row.consumer.id}>
                    <Td className="px-2 py-2">
                      <Link className="font-medium text-primary underline-offset-2 hover:underline" href={consumerHref(row.consumer.id)}>
                        {row.consumer.name}
                      </Link>
                      <span className="ml-2 font-mono text-xs text-muted-foreground">{row.consumer.uid}</span>
                    </Td>
                    <Td className="px-2 py-2 text-right tabular-nums">{row.due_capped ? t("atLeast", { count: row.due }) : format.number(row.due)}</Td>
                    <Td className="px-2 py-2 text-right tabular-nums" suppressHydrationWarning>
                      {format.relativeTime(new Date(row.oldest_due_at), now)}
                    </Td>
                  </Tr>
                ))}
              </TBody>
            </Table>
          )}
        </section>
        <section aria-labelledby="load-shares">
          <h3 id="load-shares" className="mb-2 text-xs font-medium text-muted-foreground uppercase">
            {t("sharesTitle", { minutes: load.shares.window_minutes })}
          </h3>
          {shares.length === 0 ? (
            <EmptyNote icon={Gauge} title={t("sharesEmptyTitle")} body={t("sharesEmptyBody", { minutes: load.shares.window_minutes })} testId="load-shares-empty" />
          ) : (
            <figure>
              <div style={{ height: 28 * shares.length + 16 }} aria-hidden>
                <ResponsiveContainer width="100%" height="100%">
                  <BarChart data={shares} layout="vertical" margin={{ top: 0, right: 12, bottom: 0, left: 0 }}>
                    <XAxis type="number" domain={[0, 1]} hide />
                    <YAxis type="category" dataKey="name" width={140} tickLine={false} axisLine={false} tick={{ fill: "var(--muted-foreground)", fontSize: 12 }} />
                    <Tooltip
                      cursor={{ fill: "var(--muted)" }}
                      contentStyle={{ background: "var(--card)", border: "1px solid var(--border)", borderRadius: 6, fontSize: 12 }}
                      formatter={(value, _name, item) => [
                        t("shareTooltip", { share: format.number(Number(value), { style: "percent", maximumFractionDigits: 1 }), attempts: (item.payload as { attempts: number }).attempts }),
                        "",
                      ]}
                    />
                    <Bar dataKey="share" fill="var(--primary)" radius={[0, 3, 3, 0]} isAnimationActive={false} />
                  </BarChart>
                </ResponsiveContainer>
              </div>
              {/* The figures in words, for screen readers and for reading exactly. */}
              <figcaption className="mt-2">
                <ul className="space-y-0.5 text-xs text-muted-foreground" data-testid="load-shares">
                  {shares.map((row) => (
                    <li key={row.id}>
                      <Link className="underline-offset-2 hover:underline" href={consumerHref(row.id)}>
                        {row.name}
                      </Link>
                      {": "}
                      {t("shareLine", { share: format.number(row.share, { style: "percent", maximumFractionDigits: 1 }), attempts: row.attempts })}
                    </li>
                  ))}
                </ul>
              </figcaption>
            </figure>
          )}
        </section>
      </div>
    </Card>
  );
}

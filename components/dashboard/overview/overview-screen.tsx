"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useFormatter, useNow, useTranslations } from "next-intl";
import { api } from "../../shared/api";
import { QueryRows } from "../../shared/query-rows";
import { StatsChart } from "../../shared/stats-chart";
import { Card } from "../../ui/card";
import { AlertTable } from "../alerts/alerts-screen";
import { useAlertLog } from "../alerts/queries";
import type { Backlog, ConsumerLoad } from "@/lib/deliveries/schemas";
import { ConsumerLoadCard } from "./consumer-load-card";
import type { EndpointHealthCounts } from "@/lib/endpoints/schemas";
import { PageHeader } from "../../shared/page-header";

/** What needs attention now, and how delivery has gone over the last hour, day or week. */
export function OverviewScreen({ counts, backlog, load }: { counts: EndpointHealthCounts; backlog: Backlog; load: ConsumerLoad }) {
  const t = useTranslations("overview");
  const format = useFormatter();
  const now = useNow({ updateInterval: 30_000 });
  const charts = useTranslations("charts");
  const alerts = useAlertLog({});
  const running = useQuery({ queryKey: ["recoveries", "running"], queryFn: () => api("GET /recoveries", "/recoveries?state=running&limit=250"), refetchInterval: 15_000 });
  const tiles = [
    { key: "failing", value: format.number(counts.failing), href: "/alerts?kind=endpoint.failing" },
    { key: "circuitOpen", value: format.number(counts.circuit_open), href: "/alerts?kind=endpoint.failing" },
    { key: "autoDisabled", value: format.number(counts.auto_disabled), href: "/alerts?kind=endpoint.disabled" },
    {
      key: "runningRecoveries",
      value: running.isError ? "—" : running.data ? format.number(running.data.data.length) : "…",
      href: "/recoveries?state=running",
    },
    {
      key: "pending",
      value: backlog.pending_capped ? t("atLeast", { count: backlog.pending }) : format.number(backlog.pending),
      href: "/messages?status=pending",
    },
    {
      key: "oldestDue",
      value: backlog.oldest_due_at === null ? t("nothingDue") : format.relativeTime(new Date(backlog.oldest_due_at), now),
      href: "/messages?status=pending",
    },
  ] as const;
  return (
    <>
      <PageHeader title={t("title")} description={t("description")} />
      <div className="grid gap-3 sm:grid-cols-3 xl:grid-cols-6">
        {tiles.map((tile) => (
          <Link key={tile.key} href={tile.href} className="rounded-lg focus-visible:outline-2 focus-visible:outline-ring">
            <Card className="h-full p-4 transition hover:border-primary/50">
              <span className="block text-sm text-muted-foreground">{t(`tiles.${tile.key}`)}</span>
              <span className="mt-1 block text-2xl font-semibold tabular-nums" data-testid={`tile-${tile.key}`} suppressHydrationWarning>
                {tile.value}
              </span>
            </Card>
          </Link>
        ))}
      </div>
      <Card className="mt-4 p-4">
        <h2 className="mb-3 text-sm font-semibold">{charts("title")}</h2>
        <StatsChart />
      </Card>
      <ConsumerLoadCard load={load} />
      <h2 className="mt-8 mb-3 text-lg font-semibold">{t("recentAlerts")}</h2>
      <Card>
        <QueryRows query={alerts} isEmpty={(data) => data.pages[0]!.data.length === 0} empty={<p className="p-4 text-sm text-muted-foreground">{t("noAlerts")}</p>}>
          {(data) => <AlertTable alerts={data.pages[0]!.data.slice(0, 8)} />}
        </QueryRows>
      </Card>
    </>
  );
}

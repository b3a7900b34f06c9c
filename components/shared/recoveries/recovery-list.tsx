"use client";

import type { ColumnDef } from "@tanstack/react-table";
import { RotateCcw } from "lucide-react";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { useMemo } from "react";
import { useApi } from "../api-context";
import { LogTable } from "../log-table";
import { ConsumerName, EndpointName } from "../names";
import { fetchRecoveries, recoveryKeys } from "../queries/recoveries";
import { RecoveryProgress } from "../recovery-progress";
import { RelativeTime } from "../relative-time";
import type { Recovery } from "../types";
import { toQuery } from "../use-url-filters";

/**
 * Recovery runs, newest first, their progress live, each by what it resends for: its endpoint, or
 * its consumer (the portal's "all my endpoints"). The portal's list holds only its consumer's runs
 * (the server scopes it). `filters` are the API's (consumer, endpoint_id, state).
 */
export function RecoveryList({
  runHref,
  showConsumer,
  empty,
  filters = {},
  endpointHref,
}: {
  runHref: (id: string) => string;
  showConsumer: boolean;
  empty: { title: string; description: React.ReactNode; action?: React.ReactNode };
  filters?: Record<string, string>;
  /** Where an endpoint's name links, where the viewer has its page. */
  endpointHref?: (id: string) => string;
}) {
  const call = useApi();
  const t = useTranslations("recoveryRuns");
  const columns = useMemo<ColumnDef<Recovery, unknown>[]>(
    () => [
      {
        header: t("columns.run"),
        accessorKey: "id",
        cell: ({ row }) => (
          <Link href={runHref(row.original.id)} className="font-mono text-xs text-primary underline-offset-2 hover:underline">
            {row.original.id}
          </Link>
        ),
      },
      {
        header: t("columns.scope"),
        id: "scope",
        cell: ({ row }) => {
          const r = row.original;
          if (r.endpoint_id) return <EndpointName id={r.endpoint_id} endpoint={r.endpoint} href={endpointHref?.(r.endpoint_id)} />;
          return showConsumer ? <ConsumerName id={r.consumer_id} consumer={r.consumer} href={`/consumers/${encodeURIComponent(r.consumer_id)}`} /> : <span className="text-xs">{t("allEndpoints")}</span>;
        },
      },
      {
        header: t("columns.window"),
        id: "window",
        cell: ({ row }) => (
          <span className="text-xs">
            <RelativeTime value={row.original.scope.since} /> → <RelativeTime value={row.original.scope.until} />
          </span>
        ),
      },
      { header: t("columns.progress"), id: "progress", meta: { className: "w-80" }, cell: ({ row }) => <RecoveryProgress recovery={row.original} compact /> },
      { header: t("columns.created"), accessorKey: "created_at", cell: ({ row }) => <RelativeTime value={row.original.created_at} /> },
    ],
    [t, runHref, showConsumer, endpointHref],
  );
  return (
    <LogTable
      queryKey={recoveryKeys.list(filters)}
      fetchPage={(cursor) => fetchRecoveries(call, toQuery(filters, { limit: "50", cursor: cursor ?? "" }))}
      columns={columns}
      rowLabel={(r) => r.id}
      refetchInterval={3_000}
      empty={{ icon: RotateCcw, ...empty }}
    />
  );
}

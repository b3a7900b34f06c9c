"use client";

import type { ColumnDef } from "@tanstack/react-table";
import { Plus, RotateCcw } from "lucide-react";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { useMemo } from "react";
import { useApi } from "../../shared/api-context";
import { LogTable } from "../../shared/log-table";
import { RecoveryProgress } from "../../shared/recovery-progress";
import { RelativeTime } from "../../shared/relative-time";
import type { Recovery } from "../../shared/types";
import { toQuery } from "../../shared/use-url-filters";
import { Button } from "../../ui/button";
import { Card } from "../../ui/card";
import { useOperator } from "../operator-context";
import { PageHeader } from "../page-header";
import { fetchRecoveries, recoveryKeys } from "../../shared/queries/recoveries";

export function RecoveriesScreen() {
  const call = useApi();
  const t = useTranslations("recoveryRuns");
  const { role } = useOperator();
  const newButton =
    role === "admin" ? (
      <Button asChild>
        <Link href="/recoveries/new">
          <Plus aria-hidden className="h-4 w-4" />
          {t("new")}
        </Link>
      </Button>
    ) : null;
  const columns = useMemo<ColumnDef<Recovery, unknown>[]>(
    () => [
      {
        header: t("columns.run"),
        accessorKey: "id",
        cell: ({ row }) => (
          <Link href={`/recoveries/${row.original.id}`} className="font-mono text-xs text-primary underline-offset-2 hover:underline">
            {row.original.id}
          </Link>
        ),
      },
      {
        header: t("columns.scope"),
        id: "scope",
        cell: ({ row }) => <span className="font-mono text-xs">{row.original.endpoint_id ?? row.original.consumer_id}</span>,
      },
      { header: t("columns.progress"), id: "progress", meta: { className: "w-80" }, cell: ({ row }) => <RecoveryProgress recovery={row.original} compact /> },
      { header: t("columns.created"), accessorKey: "created_at", cell: ({ row }) => <RelativeTime value={row.original.created_at} /> },
    ],
    [t],
  );
  return (
    <>
      <PageHeader title={t("title")} description={t("description")} actions={newButton} />
      {role !== "admin" ? <p className="mb-4 text-sm text-muted-foreground">{t("viewerNote")}</p> : null}
      <Card>
        <LogTable
          queryKey={recoveryKeys.list({})}
          fetchPage={(cursor) => fetchRecoveries(call, toQuery({ limit: "50", cursor: cursor ?? "" }))}
          columns={columns}
          rowLabel={(r) => r.id}
          refetchInterval={3_000}
          empty={{ icon: RotateCcw, title: t("emptyTitle"), description: t("emptyDescription"), action: newButton }}
        />
      </Card>
    </>
  );
}

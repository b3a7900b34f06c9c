"use client";

import type { ColumnDef } from "@tanstack/react-table";
import { Mail } from "lucide-react";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { useMemo } from "react";
import { LogTable } from "../../shared/log-table";
import { RelativeTime } from "../../shared/relative-time";
import { toQuery, useUrlFilters } from "../../shared/use-url-filters";
import { Button } from "../../ui/button";
import { Card } from "../../ui/card";
import { PageHeader } from "../page-header";
import { DeliveryStatus } from "./delivery-status";
import { MessageFilters } from "./message-filters";
import { useApi } from "../../shared/api-context";
import { MESSAGE_FILTERS, fetchMessages, messageKeys, type MessageSummary } from "../../shared/queries/messages";

export function MessagesScreen() {
  const t = useTranslations("messageLog");
  const call = useApi();
  const { values, set } = useUrlFilters(MESSAGE_FILTERS);
  const filtered = Object.values(values).some(Boolean);
  const columns = useMemo<ColumnDef<MessageSummary, unknown>[]>(
    () => [
      {
        header: t("columns.message"),
        accessorKey: "id",
        cell: ({ row }) => (
          <Link href={`/messages/${row.original.id}`} className="font-mono text-xs text-primary underline-offset-2 hover:underline">
            {row.original.id}
          </Link>
        ),
      },
      { header: t("columns.eventType"), accessorKey: "event_type", cell: ({ row }) => <code className="text-xs">{row.original.event_type}</code> },
      { header: t("columns.consumer"), accessorKey: "consumer_id", cell: ({ row }) => <span className="font-mono text-xs">{row.original.consumer_id}</span> },
      {
        header: t("columns.deliveries"),
        id: "deliveries",
        cell: ({ row }) =>
          row.original.deliveries.length === 0 ? (
            <span className="text-xs text-muted-foreground">{t("noDeliveries")}</span>
          ) : (
            <div className="flex flex-wrap gap-1">
              {row.original.deliveries.map((d) => (
                <DeliveryStatus key={d.id} status={d.status} />
              ))}
            </div>
          ),
      },
      { header: t("columns.created"), accessorKey: "created_at", cell: ({ row }) => <RelativeTime value={row.original.created_at} /> },
    ],
    [t],
  );
  // Keyed by the URL's filters, so the form below is rebuilt when they change from outside (back button).
  const key = toQuery(values);
  return (
    <>
      <PageHeader title={t("title")} description={t("description")} />
      <Card className="mb-4">
        <MessageFilters key={key} values={values} onApply={set} />
      </Card>
      <Card>
        <LogTable
          queryKey={messageKeys.list(values)}
          fetchPage={(cursor) => fetchMessages(call, toQuery(values, { limit: "50", cursor: cursor ?? undefined }))}
          columns={columns}
          rowLabel={(m) => m.id}
          empty={
            filtered
              ? { icon: Mail, title: t("emptyFilteredTitle"), description: t("emptyFilteredDescription"), action: <Button variant="secondary" onClick={() => set(Object.fromEntries(MESSAGE_FILTERS.map((k) => [k, ""])))}>{t("filters.clear")}</Button> }
              : { icon: Mail, title: t("emptyTitle"), description: t("emptyDescription") }
          }
        />
      </Card>
    </>
  );
}

"use client";

import type { ColumnDef } from "@tanstack/react-table";
import { useTranslations } from "next-intl";
import { useMemo } from "react";
import { RelativeTime } from "../../shared/relative-time";
import { Badge } from "../../ui/badge";
import { DataTable } from "../../ui/data-table";
import type { OperatorSession } from "./queries";

/** Sessions by device, address and when last seen; `action` is each row's button, if any. */
export function SessionsTable({ sessions, action }: { sessions: OperatorSession[]; action?: (session: OperatorSession) => React.ReactNode }) {
  const t = useTranslations("account");
  const common = useTranslations("common");
  const columns = useMemo<ColumnDef<OperatorSession, unknown>[]>(
    () => [
      {
        header: t("columns.device"),
        id: "device",
        cell: ({ row }) => (
          <span className="font-medium" title={row.original.user_agent ?? undefined}>
            {row.original.device ?? t("unknownDevice")}
            {row.original.current ? (
              <Badge tone="primary" className="ml-2">
                {t("thisDevice")}
              </Badge>
            ) : null}
          </span>
        ),
      },
      { header: t("columns.address"), id: "address", cell: ({ row }) => row.original.address ?? <span className="text-muted-foreground">{t("noAddress")}</span> },
      { header: t("columns.signedIn"), id: "created", cell: ({ row }) => <RelativeTime value={row.original.created_at} /> },
      { header: t("columns.lastSeen"), id: "seen", cell: ({ row }) => <RelativeTime value={row.original.last_seen_at} /> },
      ...(action
        ? [{ id: "actions", header: () => <span className="sr-only">{common("actions")}</span>, meta: { className: "text-right" }, cell: ({ row }) => action(row.original) } satisfies ColumnDef<OperatorSession, unknown>]
        : []),
    ],
    [t, common, action],
  );
  return <DataTable columns={columns} data={sessions} rowLabel={(session) => session.device ?? session.id} />;
}

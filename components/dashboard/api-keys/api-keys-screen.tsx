"use client";

import type { ColumnDef } from "@tanstack/react-table";
import { KeyRound } from "lucide-react";
import { useTranslations } from "next-intl";
import { useMemo } from "react";
import { toast } from "sonner";
import { useErrorText } from "../../shared/error-message";
import { QueryRows } from "../../shared/query-rows";
import { RelativeTime } from "../../shared/relative-time";
import { ConfirmDialog } from "../../ui/alert-dialog";
import { Button } from "../../ui/button";
import { Card } from "../../ui/card";
import { DataTable } from "../../ui/data-table";
import { EmptyState } from "../../ui/empty-state";
import { useOperator } from "../operator-context";
import { PageHeader } from "../../shared/page-header";
import { CreateApiKeyDialog } from "./create-api-key-dialog";
import { useApiKeys, useRevokeApiKey, type ApiKey } from "./queries";

export function ApiKeysScreen() {
  const t = useTranslations("apiKeys");
  const common = useTranslations("common");
  const errorText = useErrorText();
  const { role } = useOperator();
  const keys = useApiKeys();
  const revoke = useRevokeApiKey();
  const canWrite = role === "admin";

  const columns = useMemo<ColumnDef<ApiKey, unknown>[]>(
    () => [
      { header: t("columns.name"), accessorKey: "name", cell: ({ row }) => <span className="font-medium">{row.original.name}</span> },
      {
        header: t("columns.prefix"),
        accessorKey: "prefix",
        cell: ({ row }) => <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs">{row.original.prefix}…</code>,
      },
      { header: t("columns.created"), accessorKey: "created_at", cell: ({ row }) => <RelativeTime value={row.original.created_at} /> },
      {
        header: t("columns.lastUsed"),
        accessorKey: "last_used_at",
        cell: ({ row }) => <RelativeTime value={row.original.last_used_at} never={t("neverUsed")} />,
      },
      {
        id: "actions",
        header: () => <span className="sr-only">{common("actions")}</span>,
        meta: { className: "text-right" },
        cell: ({ row }) =>
          canWrite ? (
            <ConfirmDialog
              trigger={
                <Button variant="secondary" size="sm">
                  {t("revoke")}
                </Button>
              }
              title={t("revokeTitle", { name: row.original.name })}
              description={t("revokeDescription")}
              confirmLabel={t("revoke")}
              cancelLabel={common("cancel")}
              onConfirm={() =>
                revoke.mutateAsync(row.original.id).then(
                  () => toast.success(t("revoked", { name: row.original.name })),
                  (error: unknown) => toast.error(errorText(error)),
                )
              }
            />
          ) : null,
      },
    ],
    [t, common, canWrite, revoke, errorText],
  );

  return (
    <>
      <PageHeader title={t("title")} description={t("description")} actions={canWrite ? <CreateApiKeyDialog /> : null} />
      {!canWrite ? <p className="mb-4 text-sm text-muted-foreground">{t("viewerNote")}</p> : null}
      <Card>
        <QueryRows
          query={keys}
          isEmpty={(page) => page.data.length === 0}
          empty={<EmptyState icon={KeyRound} title={t("emptyTitle")} description={t("emptyDescription")} action={canWrite ? <CreateApiKeyDialog /> : null} />}
        >
          {(page) => <DataTable columns={columns} data={page.data} rowLabel={(key) => key.name} />}
        </QueryRows>
      </Card>
    </>
  );
}

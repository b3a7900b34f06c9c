"use client";

import type { ColumnDef } from "@tanstack/react-table";
import { UserCog } from "lucide-react";
import { useTranslations } from "next-intl";
import { useMemo } from "react";
import { toast } from "sonner";
import { useErrorText } from "../../shared/error-message";
import { QueryRows } from "../../shared/query-rows";
import { RelativeTime } from "../../shared/relative-time";
import { ConfirmDialog } from "../../ui/alert-dialog";
import { Badge } from "../../ui/badge";
import { Button } from "../../ui/button";
import { Card } from "../../ui/card";
import { DataTable } from "../../ui/data-table";
import { EmptyState } from "../../ui/empty-state";
import { useOperator } from "../operator-context";
import { AdminOnly } from "../admin-only";
import { PageHeader } from "../../shared/page-header";
import { CreateOperatorDialog } from "./create-operator-dialog";
import { OperatorSessionsDialog } from "./operator-sessions-dialog";
import { useDeleteOperator, useOperators, type Operator } from "./queries";
import { TwoFactorPolicyCard } from "./two-factor-policy-card";
import { useResetTwoFactor } from "../account/queries";

export function OperatorsScreen() {
  const t = useTranslations("operators");
  const common = useTranslations("common");
  const errorText = useErrorText();
  const me = useOperator();
  const isAdmin = me.role === "admin";
  const operators = useOperators(isAdmin);
  const remove = useDeleteOperator();
  const resetFactor = useResetTwoFactor();

  const columns = useMemo<ColumnDef<Operator, unknown>[]>(
    () => [
      {
        header: t("columns.email"),
        accessorKey: "email",
        cell: ({ row }) => (
          <span className="font-medium">
            {row.original.email}
            {row.original.id === me.id ? <span className="ml-2 text-xs font-normal text-muted-foreground">({t("you")})</span> : null}
          </span>
        ),
      },
      {
        header: t("columns.role"),
        accessorKey: "role",
        cell: ({ row }) => <Badge tone={row.original.role === "admin" ? "primary" : "neutral"}>{t(`roles.${row.original.role}`)}</Badge>,
      },
      { header: t("columns.created"), accessorKey: "created_at", cell: ({ row }) => <RelativeTime value={row.original.created_at} /> },
      {
        id: "actions",
        header: () => <span className="sr-only">{common("actions")}</span>,
        meta: { className: "text-right" },
        cell: ({ row }) =>
          row.original.id === me.id ? null : (
            <div className="flex justify-end gap-2">
              <OperatorSessionsDialog operator={row.original} />
              <ConfirmDialog
                trigger={
                  <Button variant="secondary" size="sm">
                    {t("resetTwoFactor")}
                  </Button>
                }
                title={t("resetTwoFactorTitle", { email: row.original.email })}
                description={t("resetTwoFactorDescription")}
                confirmLabel={t("resetTwoFactor")}
                cancelLabel={common("cancel")}
                onConfirm={() =>
                  resetFactor.mutateAsync(row.original.id).then(
                    () => toast.success(t("twoFactorReset", { email: row.original.email })),
                    (error: unknown) => toast.error(errorText(error)),
                  )
                }
              />
              <ConfirmDialog
                trigger={
                  <Button variant="secondary" size="sm">
                    {t("remove")}
                  </Button>
                }
                title={t("removeTitle", { email: row.original.email })}
                description={t("removeDescription")}
                confirmLabel={t("remove")}
                cancelLabel={common("cancel")}
                onConfirm={() =>
                  remove.mutateAsync(row.original.id).then(
                    () => toast.success(t("removed", { email: row.original.email })),
                    (error: unknown) => toast.error(errorText(error)),
                  )
                }
              />
            </div>
          ),
      },
    ],
    [t, common, me.id, remove, resetFactor, errorText],
  );

  if (!isAdmin) return <AdminOnly title={t("title")} emptyTitle={t("adminOnlyTitle")} emptyDescription={t("adminOnlyDescription")} />;
  return (
    <>
      <PageHeader title={t("title")} description={t("description")} actions={<CreateOperatorDialog />} />
      <TwoFactorPolicyCard />
      <Card>
        <QueryRows query={operators} isEmpty={(page) => page.data.length === 0} empty={<EmptyState icon={UserCog} title={t("emptyTitle")} description={t("emptyDescription")} />}>
          {(page) => <DataTable columns={columns} data={page.data} rowLabel={(operator) => operator.email} />}
        </QueryRows>
      </Card>
    </>
  );
}

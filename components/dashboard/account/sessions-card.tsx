"use client";

import { MonitorSmartphone } from "lucide-react";
import { useTranslations } from "next-intl";
import { useCallback } from "react";
import { toast } from "sonner";
import { useErrorText } from "../../shared/error-message";
import { QueryRows } from "../../shared/query-rows";
import { ConfirmDialog } from "../../ui/alert-dialog";
import { Button } from "../../ui/button";
import { Card } from "../../ui/card";
import { useEndOtherSessions, useEndOwnSession, useOwnSessions, type OperatorSession } from "./queries";
import { SessionsTable } from "./sessions-table";

/** The signed-in operator's sessions: end one, or every one but this. */
export function SessionsCard() {
  const t = useTranslations("account");
  const common = useTranslations("common");
  const errorText = useErrorText();
  const sessions = useOwnSessions();
  const endOne = useEndOwnSession();
  const endOthers = useEndOtherSessions();
  const others = (sessions.data?.data ?? []).filter((session) => !session.current).length;
  const action = useCallback(
    (session: OperatorSession) =>
      session.current ? null : (
        <Button
          variant="secondary"
          size="sm"
          disabled={endOne.isPending}
          onClick={() =>
            endOne.mutateAsync(session.id).then(
              () => toast.success(t("ended")),
              (error: unknown) => toast.error(errorText(error)),
            )
          }
        >
          {t("end")}
        </Button>
      ),
    [endOne, errorText, t],
  );
  return (
    <Card data-testid="sessions-card">
      <div className="flex flex-wrap items-start justify-between gap-4 p-6 pb-4">
        <div>
          <div className="flex items-center gap-2">
            <MonitorSmartphone aria-hidden className="h-5 w-5 text-primary" />
            <h2 className="text-lg font-semibold">{t("sessionsTitle")}</h2>
          </div>
          <p className="mt-1 text-sm text-muted-foreground">{t("sessionsDescription")}</p>
        </div>
        <ConfirmDialog
          trigger={
            <Button variant="secondary" size="sm" disabled={others === 0}>
              {t("endOthers")}
            </Button>
          }
          title={t("endOthersTitle")}
          description={t("endOthersDescription", { count: others })}
          confirmLabel={t("endOthers")}
          cancelLabel={common("cancel")}
          onConfirm={() =>
            endOthers.mutateAsync().then(
              (answer) => toast.success(t("endedOthers", { count: answer.ended })),
              (error: unknown) => toast.error(errorText(error)),
            )
          }
        />
      </div>
      <QueryRows query={sessions} isEmpty={(page) => page.data.length === 0} empty={<p className="p-6 text-sm text-muted-foreground">{t("noSessions")}</p>}>
        {(page) => <SessionsTable sessions={page.data} action={action} />}
      </QueryRows>
    </Card>
  );
}

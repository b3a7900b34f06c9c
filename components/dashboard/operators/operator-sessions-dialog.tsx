"use client";

import { MonitorSmartphone } from "lucide-react";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { toast } from "sonner";
import { useErrorText } from "../../shared/error-message";
import { QueryRows } from "../../shared/query-rows";
import { Button } from "../../ui/button";
import { Dialog, DialogContent, DialogTrigger } from "../../ui/dialog";
import { useEndOperatorSessions, useOperatorSessions } from "../account/queries";
import { SessionsTable } from "../account/sessions-table";
import type { Operator } from "./queries";

/** An admin's view of one operator's sessions, with "end all" (audited). Loaded when opened. */
export function OperatorSessionsDialog({ operator }: { operator: Operator }) {
  const t = useTranslations("operators");
  const common = useTranslations("common");
  const errorText = useErrorText();
  const [open, setOpen] = useState(false);
  const sessions = useOperatorSessions(operator.id, open);
  const endAll = useEndOperatorSessions(operator.id);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="secondary" size="sm">
          <MonitorSmartphone aria-hidden className="h-4 w-4" />
          {t("sessions")}
        </Button>
      </DialogTrigger>
      <DialogContent title={t("sessionsTitle", { email: operator.email })} description={t("sessionsDescription")} closeLabel={common("close")} className="max-w-2xl">
        <QueryRows query={sessions} isEmpty={(page) => page.data.length === 0} empty={<p className="text-sm text-muted-foreground">{t("noSessions")}</p>}>
          {(page) => <SessionsTable sessions={page.data} />}
        </QueryRows>
        <div className="mt-6 flex justify-end">
          <Button
            variant="danger"
            disabled={endAll.isPending || !sessions.data?.data.length}
            onClick={() =>
              endAll.mutateAsync().then(
                (answer) => toast.success(t("sessionsEnded", { count: answer.ended, email: operator.email })),
                (error: unknown) => toast.error(errorText(error)),
              )
            }
          >
            {t("endAllSessions")}
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}

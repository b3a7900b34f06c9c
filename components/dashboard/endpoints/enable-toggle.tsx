"use client";

import { useTranslations } from "next-intl";
import { toast } from "sonner";
import { useErrorText } from "../../shared/error-message";
import type { Endpoint } from "../../shared/resources";
import { ConfirmDialog } from "../../ui/alert-dialog";
import { Button } from "../../ui/button";
import { useSetEnabled } from "../../shared/queries/endpoints";

/** Disable asks first (deliveries stop queuing); enable does not, and also closes the circuit. */
export function EnableToggle({ endpoint, canWrite }: { endpoint: Endpoint; canWrite: boolean }) {
  const t = useTranslations("endpoints");
  const common = useTranslations("common");
  const errorText = useErrorText();
  const set = useSetEnabled(endpoint.id);
  const run = (enable: boolean) =>
    set.mutateAsync(enable).then(
      () => toast.success(enable ? t("enabled") : t("disabled")),
      (error: unknown) => toast.error(errorText(error)),
    );
  // A viewer sees the control disabled with the reason (the page says it too); the server refuses anyway.
  const title = canWrite ? undefined : t("viewerNote");
  if (endpoint.state !== "active") {
    return (
      <Button onClick={() => run(true)} disabled={!canWrite || set.isPending} title={title}>
        {t("enable")}
      </Button>
    );
  }
  return (
    <ConfirmDialog
      trigger={
        <Button variant="secondary" title={title} disabled={!canWrite || set.isPending}>
          {t("disable")}
        </Button>
      }
      title={t("disableTitle")}
      description={t("disableDescription")}
      confirmLabel={t("disable")}
      cancelLabel={common("cancel")}
      onConfirm={() => run(false)}
    />
  );
}

"use client";

import { useTranslations } from "next-intl";
import { toast } from "sonner";
import { useErrorText } from "../error-message";
import type { Endpoint } from "../resources";
import { ConfirmDialog } from "../../ui/alert-dialog";
import { Button } from "../../ui/button";
import { useSetEnabled } from "../queries/endpoints";

/**
 * Disable asks first (deliveries stop queuing); enable does not, and also closes the circuit.
 * `reason` says why the viewer may not (a viewer's role, a portal link without manage_endpoints).
 */
export function EnableToggle({ endpoint, reason }: { endpoint: Endpoint; reason: string | null }) {
  const t = useTranslations("endpoints");
  const common = useTranslations("common");
  const errorText = useErrorText();
  const set = useSetEnabled(endpoint.id);
  const run = (enable: boolean) =>
    set.mutateAsync(enable).then(
      () => toast.success(enable ? t("enabled") : t("disabled")),
      (error: unknown) => toast.error(errorText(error)),
    );
  // Shown disabled with the reason (the page says it too); the server refuses anyway.
  const title = reason ?? undefined;
  if (endpoint.state !== "active") {
    return (
      <Button onClick={() => run(true)} disabled={reason !== null || set.isPending} title={title}>
        {t("enable")}
      </Button>
    );
  }
  return (
    <ConfirmDialog
      trigger={
        <Button variant="secondary" title={title} disabled={reason !== null || set.isPending}>
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

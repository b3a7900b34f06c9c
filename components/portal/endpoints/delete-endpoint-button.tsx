"use client";

import { Trash2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { toast } from "sonner";
import { useErrorText } from "../../shared/error-message";
import { useDeleteEndpoint } from "../../shared/queries/endpoints";
import type { Endpoint } from "../../shared/resources";
import { ConfirmDialog } from "../../ui/alert-dialog";
import { Button } from "../../ui/button";

/** Deleting is final (its deliveries stop, its secret is gone), so it asks first, naming the URL. */
export function DeleteEndpointButton({ endpoint, reason }: { endpoint: Endpoint; reason: string | null }) {
  const t = useTranslations("portalEndpoints.delete");
  const common = useTranslations("common");
  const errorText = useErrorText();
  const router = useRouter();
  const remove = useDeleteEndpoint(endpoint.id);
  return (
    <ConfirmDialog
      trigger={
        <Button variant="secondary" disabled={reason !== null || remove.isPending} title={reason ?? undefined}>
          <Trash2 aria-hidden className="h-4 w-4" />
          {t("open")}
        </Button>
      }
      title={t("title")}
      description={t("description", { url: endpoint.url })}
      confirmLabel={t("confirm")}
      cancelLabel={common("cancel")}
      onConfirm={() =>
        remove.mutateAsync().then(
          () => {
            toast.success(t("done"));
            router.push("/portal");
          },
          (error: unknown) => toast.error(errorText(error)),
        )
      }
    />
  );
}

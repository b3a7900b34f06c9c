"use client";

import { Eye, RefreshCw } from "lucide-react";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { toast } from "sonner";
import { useErrorText } from "../error-message";
import { SecretValue } from "../secret-value";
import { ConfirmDialog } from "../../ui/alert-dialog";
import { Button } from "../../ui/button";
import { Card } from "../../ui/card";
import { useRevealSecret, useRotateSecret } from "../queries/endpoints";

/**
 * The signing secret stays hidden until asked for; each reveal is written to the audit log.
 * `revealReason` / `rotateReason` say why the viewer may not (null: they may).
 */
export function SecretCard({ endpointId, revealReason, rotateReason }: { endpointId: string; revealReason: string | null; rotateReason: string | null }) {
  const t = useTranslations("endpoints.secret");
  const common = useTranslations("common");
  const errorText = useErrorText();
  const [shown, setShown] = useState<string | null>(null);
  const reveal = useRevealSecret(endpointId);
  const rotate = useRotateSecret(endpointId);

  return (
    <Card className="p-4">
      <h2 className="mb-1 text-sm font-semibold">{t("title")}</h2>
      <p className="mb-3 text-xs text-muted-foreground">{t("audited")}</p>
      {shown ? (
        <SecretValue value={shown} testId="endpoint-secret" copyLabel={t("copy")} />
      ) : (
        <Button
          variant="secondary"
          disabled={revealReason !== null || reveal.isPending}
          title={revealReason ?? undefined}
          onClick={() =>
            reveal.mutate(undefined, {
              onSuccess: (secret) => setShown(secret.key),
              onError: (error) => toast.error(errorText(error)),
            })
          }
        >
          <Eye aria-hidden className="h-4 w-4" />
          {t("reveal")}
        </Button>
      )}
      {revealReason ? <p className="mt-2 text-xs text-muted-foreground">{revealReason}</p> : null}
      <div className="mt-4 border-t border-border pt-4">
        <p className="mb-2 text-xs text-muted-foreground">{t("rotateExplained")}</p>
        <ConfirmDialog
          trigger={
            <Button variant="secondary" size="sm" disabled={rotateReason !== null || rotate.isPending} title={rotateReason ?? undefined}>
              <RefreshCw aria-hidden className="h-4 w-4" />
              {t("rotate")}
            </Button>
          }
          title={t("rotateTitle")}
          description={t("rotateExplained")}
          confirmLabel={t("rotate")}
          cancelLabel={common("cancel")}
          onConfirm={() =>
            rotate.mutateAsync().then(
              (secret) => {
                setShown(secret.key);
                toast.success(t("rotated"));
              },
              (error: unknown) => toast.error(errorText(error)),
            )
          }
        />
        {rotateReason && rotateReason !== revealReason ? <p className="mt-2 text-xs text-muted-foreground">{rotateReason}</p> : null}
      </div>
    </Card>
  );
}

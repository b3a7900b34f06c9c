"use client";

import { ExternalLink, LogOut } from "lucide-react";
import { useTranslations } from "next-intl";
import { toast } from "sonner";
import { useErrorText } from "../../shared/error-message";
import { useEndPortalSessions, useMintPortalLink } from "../../shared/queries/consumers";
import { ConfirmDialog } from "../../ui/alert-dialog";
import { Button } from "../../ui/button";
import { useOperator } from "../operator-context";

/** See the consumer's portal as they would (a fresh one-time link in a new tab), or end every session it has. */
export function PortalActions({ consumerId }: { consumerId: string }) {
  const t = useTranslations("consumers");
  const common = useTranslations("common");
  const errorText = useErrorText();
  const { role } = useOperator();
  const mint = useMintPortalLink(consumerId);
  const end = useEndPortalSessions(consumerId);
  const reason = role === "admin" ? null : t("viewerNote");

  const open = () => {
    // Opened now, while the click still counts as the user's, then sent to the link once it exists;
    // opening after the request would be a popup the browser blocks.
    const tab = window.open("about:blank", "_blank");
    if (tab) tab.opener = null;
    mint.mutate(undefined, {
      onSuccess: ({ url }) => {
        if (tab) tab.location.href = url;
        else window.location.href = url;
      },
      onError: (error) => {
        tab?.close();
        toast.error(errorText(error));
      },
    });
  };

  return (
    <div className="flex flex-wrap justify-end gap-2">
      <Button variant="secondary" onClick={open} disabled={reason !== null || mint.isPending} title={reason ?? t("openPortalHint")}>
        <ExternalLink aria-hidden className="h-4 w-4" />
        {t("openPortal")}
      </Button>
      <ConfirmDialog
        trigger={
          <Button variant="secondary" disabled={reason !== null || end.isPending} title={reason ?? undefined}>
            <LogOut aria-hidden className="h-4 w-4" />
            {t("endPortalSessions")}
          </Button>
        }
        title={t("endPortalSessionsTitle")}
        description={t("endPortalSessionsDescription")}
        confirmLabel={t("endPortalSessions")}
        cancelLabel={common("cancel")}
        onConfirm={() =>
          end.mutateAsync().then(
            () => toast.success(t("portalSessionsEnded")),
            (error: unknown) => toast.error(errorText(error)),
          )
        }
      />
    </div>
  );
}

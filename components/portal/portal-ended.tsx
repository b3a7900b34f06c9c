"use client";

import { Clock, Link2Off, LogOut } from "lucide-react";
import { useTranslations } from "next-intl";
import { Card } from "../ui/card";

export type EndReason = "invalid_link" | "expired" | "no_link" | "signed_out";

const ICON = { invalid_link: Link2Off, expired: Clock, no_link: Link2Off, signed_out: LogOut } as const;

/** Why there is no portal to show, and what the customer can do about it. */
export function PortalEnded({ reason, productName }: { reason: EndReason; productName: string }) {
  const t = useTranslations("portal.ended");
  const Icon = ICON[reason];
  return (
    <div className="mx-auto max-w-lg px-4 py-16">
      <Card className="p-8 text-center" data-testid="portal-ended" data-reason={reason}>
        <div className="mx-auto mb-4 w-fit rounded-full bg-muted p-3 text-muted-foreground">
          <Icon aria-hidden className="h-6 w-6" />
        </div>
        <h1 className="text-lg font-semibold">{t(`${reason}.title`)}</h1>
        <p className="mt-2 text-sm text-muted-foreground">{t(`${reason}.description`, { product: productName })}</p>
      </Card>
    </div>
  );
}

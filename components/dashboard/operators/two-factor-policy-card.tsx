"use client";

import { ShieldCheck } from "lucide-react";
import { useTranslations } from "next-intl";
import { toast } from "sonner";
import { useErrorText } from "../../shared/error-message";
import { Card } from "../../ui/card";
import { useTwoFactorPolicy, useUpdateTwoFactorPolicy } from "../account/queries";

/** The admin's setting: a second factor required of every operator (stored in the database, audited). */
export function TwoFactorPolicyCard() {
  const t = useTranslations("operators");
  const errorText = useErrorText();
  const policy = useTwoFactorPolicy();
  const update = useUpdateTwoFactorPolicy();
  const required = policy.data?.required ?? false;
  return (
    <Card className="mb-6 p-4">
      <label className="flex cursor-pointer items-start gap-3 text-sm">
        <input
          type="checkbox"
          className="mt-1 accent-[var(--primary)]"
          checked={required}
          disabled={policy.isPending || update.isPending}
          data-testid="require-two-factor"
          onChange={(event) =>
            update.mutateAsync(event.target.checked).then(
              (now) => toast.success(now.required ? t("requiredOn") : t("requiredOff")),
              (error: unknown) => toast.error(errorText(error)),
            )
          }
        />
        <span>
          <span className="flex items-center gap-1.5 font-medium">
            <ShieldCheck aria-hidden className="h-4 w-4 text-primary" />
            {t("requireTwoFactor")}
          </span>
          <span className="block text-muted-foreground">{t("requireTwoFactorHint")}</span>
        </span>
      </label>
    </Card>
  );
}

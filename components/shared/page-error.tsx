"use client";

import { AlertTriangle } from "lucide-react";
import { useTranslations } from "next-intl";
import { Button } from "../ui/button";
import { Card } from "../ui/card";
import { EmptyState } from "../ui/empty-state";

/** A screen that threw while rendering, in words, with its digest for the server log and a retry. */
export function PageError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const t = useTranslations("errors");
  return (
    <Card>
      <EmptyState
        icon={AlertTriangle}
        title={t("pageTitle")}
        description={error.digest ? `${t("pageDescription")} (${error.digest})` : t("pageDescription")}
        action={<Button onClick={reset}>{t("reload")}</Button>}
      />
    </Card>
  );
}

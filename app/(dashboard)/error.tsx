"use client";

import { AlertTriangle } from "lucide-react";
import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";

export default function DashboardError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
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

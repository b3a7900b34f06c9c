"use client";

import { Plus } from "lucide-react";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { PageHeader } from "../../shared/page-header";
import { RecoveryList } from "../../shared/recoveries/recovery-list";
import { Button } from "../../ui/button";
import { Card } from "../../ui/card";
import { useOperator } from "../operator-context";

const runHref = (id: string) => `/recoveries/${id}`;

export function RecoveriesScreen() {
  const t = useTranslations("recoveryRuns");
  const { role } = useOperator();
  const newButton =
    role === "admin" ? (
      <Button asChild>
        <Link href="/recoveries/new">
          <Plus aria-hidden className="h-4 w-4" />
          {t("new")}
        </Link>
      </Button>
    ) : null;
  return (
    <>
      <PageHeader title={t("title")} description={t("description")} actions={newButton} />
      {role !== "admin" ? <p className="mb-4 text-sm text-muted-foreground">{t("viewerNote")}</p> : null}
      <Card>
        <RecoveryList runHref={runHref} showConsumer empty={{ title: t("emptyTitle"), description: t("emptyDescription"), action: newButton }} />
      </Card>
    </>
  );
}

"use client";

import { useTranslations } from "next-intl";
import { RecoveryDetail } from "../../shared/recoveries/recovery-detail";
import { useOperator } from "../operator-context";

const runHref = (id: string) => `/recoveries/${id}`;
const messageHref = (id: string) => `/messages/${id}`;
const endpointHref = (id: string) => `/endpoints/${id}`;

export function RecoveryDetailScreen({ id }: { id: string }) {
  const t = useTranslations("recoveryRuns.detail");
  const { role } = useOperator();
  return (
    <RecoveryDetail
      id={id}
      back={{ href: "/recoveries", label: t("back") }}
      runHref={runHref}
      messageHref={messageHref}
      endpointHref={endpointHref}
      showOwner
      cannotChange={role === "admin" ? undefined : t("viewerCannotChange")}
    />
  );
}

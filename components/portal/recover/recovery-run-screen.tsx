"use client";

import { useTranslations } from "next-intl";
import { useConsumerEndpoints } from "../../shared/queries/consumers";
import { RecoveryDetail } from "../../shared/recoveries/recovery-detail";
import type { Recovery } from "../../shared/types";
import { usePortalSession } from "../session-context";

const runHref = (id: string) => `/portal/recover/${id}`;
const messageHref = (id: string) => `/portal/deliveries/${id}`;

export function RecoveryRunScreen({ id }: { id: string }) {
  const t = useTranslations("portalRecover");
  const { consumerId, can } = usePortalSession();
  const endpoints = useConsumerEndpoints(consumerId);
  // The session is the run's consumer: "all my endpoints", or the one endpoint by its URL.
  const targetName = (r: Recovery) => (r.endpoint_id ? endpoints.data?.data.find((e) => e.id === r.endpoint_id)?.url : t("allEndpoints"));
  return (
    <RecoveryDetail
      id={id}
      back={{ href: "/portal/recover", label: t("back") }}
      runHref={runHref}
      messageHref={messageHref}
      cannotChange={can("recover") ? undefined : t("cannotChange")}
      targetName={targetName}
    />
  );
}

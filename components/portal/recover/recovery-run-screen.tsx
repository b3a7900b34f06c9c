"use client";

import { useTranslations } from "next-intl";
import { useCallback } from "react";
import { useConsumerEndpoints } from "../../shared/queries/consumers";
import { RecoveryDetail } from "../../shared/recoveries/recovery-detail";
import { usePortalSession } from "../session-context";

const runHref = (id: string) => `/portal/recover/${id}`;
const messageHref = (id: string) => `/portal/deliveries/${id}`;

export function RecoveryRunScreen({ id }: { id: string }) {
  const t = useTranslations("portalRecover");
  const { consumerId, can } = usePortalSession();
  const endpoints = useConsumerEndpoints(consumerId);
  // A customer knows their endpoints by URL; the session is the run's consumer, so "all my endpoints".
  const urls = endpoints.data?.data;
  const endpointName = useCallback((id: string) => urls?.find((e) => e.id === id)?.url, [urls]);
  return (
    <RecoveryDetail
      id={id}
      back={{ href: "/portal/recover", label: t("back") }}
      runHref={runHref}
      messageHref={messageHref}
      cannotChange={can("recover") ? undefined : t("cannotChange")}
      endpointName={endpointName}
      consumerWide={t("allEndpointsInSentence")}
    />
  );
}

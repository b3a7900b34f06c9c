"use client";

import { useTranslations } from "next-intl";
import { useMemo } from "react";
import { MessageLog } from "../../shared/messages/message-log";
import { PageHeader } from "../../shared/page-header";
import { useConsumerEndpoints } from "../../shared/queries/consumers";
import { usePortalSession } from "../session-context";

// The session is one consumer already: no consumer filter, no consumer column.
const FIELDS = ["endpoint_id", "status", "event_type", "since", "until"] as const;
const messageHref = (id: string) => `/portal/deliveries/${id}`;

export function DeliveriesScreen() {
  const t = useTranslations("portalDeliveries");
  const { consumerId } = usePortalSession();
  const endpoints = useConsumerEndpoints(consumerId);
  // A customer knows their endpoints by URL, not by id.
  const options = useMemo(() => endpoints.data?.data.map((e) => ({ id: e.id, label: e.url })) ?? [], [endpoints.data]);
  return (
    <>
      <PageHeader title={t("title")} description={t("description")} />
      <MessageLog
        fields={FIELDS}
        messageHref={messageHref}
        showConsumer={false}
        endpoints={options}
        empty={{ title: t("emptyTitle"), description: t("emptyDescription") }}
      />
    </>
  );
}

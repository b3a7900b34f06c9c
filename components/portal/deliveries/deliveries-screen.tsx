"use client";

import { useTranslations } from "next-intl";
import { MessageLog } from "../../shared/messages/message-log";
import { PageHeader } from "../../shared/page-header";

// The session is one consumer already: no consumer filter, no consumer column.
const FIELDS = ["status", "event_type", "since", "until"] as const;
const messageHref = (id: string) => `/portal/deliveries/${id}`;

export function DeliveriesScreen() {
  const t = useTranslations("portalDeliveries");
  return (
    <>
      <PageHeader title={t("title")} description={t("description")} />
      <MessageLog fields={FIELDS} messageHref={messageHref} showConsumer={false} empty={{ title: t("emptyTitle"), description: t("emptyDescription") }} />
    </>
  );
}

"use client";

import { useTranslations } from "next-intl";
import { MessageDetail } from "../../shared/messages/message-detail";
import { usePortalSession } from "../session-context";

const endpointHref = (id: string) => `/portal/endpoints/${encodeURIComponent(id)}`;

export function DeliveryDetailScreen({ id }: { id: string }) {
  const t = useTranslations("portalDeliveries");
  const { can } = usePortalSession();
  return <MessageDetail id={id} back={{ href: "/portal/deliveries", label: t("back") }} cannotResend={can("resend") ? undefined : t("cannotResend")} showConsumer={false} endpointHref={endpointHref} />;
}

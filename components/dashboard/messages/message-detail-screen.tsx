"use client";

import { useTranslations } from "next-intl";
import { MessageDetail } from "../../shared/messages/message-detail";
import { useOperator } from "../operator-context";

const endpointHref = (id: string) => `/endpoints/${id}`;

export function MessageDetailScreen({ id }: { id: string }) {
  const t = useTranslations("messageLog.detail");
  const { role } = useOperator();
  return (
    <MessageDetail
      id={id}
      back={{ href: "/messages", label: t("back") }}
      cannotResend={role === "admin" ? undefined : t("viewerCannotResend")}
      showConsumer
      endpointHref={endpointHref}
      canExpunge={role === "admin"}
    />
  );
}

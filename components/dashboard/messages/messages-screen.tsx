"use client";

import { useTranslations } from "next-intl";
import { MessageLog } from "../../shared/messages/message-log";
import { PageHeader } from "../../shared/page-header";
import { MESSAGE_FILTERS } from "../../shared/queries/messages";

const messageHref = (id: string) => `/messages/${id}`;

export function MessagesScreen() {
  const t = useTranslations("messageLog");
  return (
    <>
      <PageHeader title={t("title")} description={t("description")} />
      <MessageLog fields={MESSAGE_FILTERS} messageHref={messageHref} showConsumer empty={{ title: t("emptyTitle"), description: t("emptyDescription") }} />
    </>
  );
}

"use client";

import { useTranslations } from "next-intl";
import { RecoveryDetail } from "../../shared/recoveries/recovery-detail";
import { usePortalSession } from "../session-context";

const runHref = (id: string) => `/portal/recover/${id}`;
const messageHref = (id: string) => `/portal/deliveries/${id}`;

export function RecoveryRunScreen({ id }: { id: string }) {
  const t = useTranslations("portalRecover");
  const { can } = usePortalSession();
  return <RecoveryDetail id={id} back={{ href: "/portal/recover", label: t("back") }} runHref={runHref} messageHref={messageHref} cannotChange={can("recover") ? undefined : t("cannotChange")} />;
}

"use client";

import { useTranslations } from "next-intl";
import { Badge } from "../../ui/badge";
import type { DeliverySummary } from "../../shared/queries/messages";

const TONES = { pending: "warning", succeeded: "success", failed: "danger", canceled: "neutral" } as const;

export function DeliveryStatus({ status }: { status: DeliverySummary["status"] }) {
  const t = useTranslations("messageLog.filters.statuses");
  return <Badge tone={TONES[status]}>{t(status)}</Badge>;
}

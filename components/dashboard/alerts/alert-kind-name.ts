"use client";

import { useTranslations } from "next-intl";

/** An alert kind (`endpoint.disabled`) in the reader's words; a kind this build does not know stays its code. */
export function useAlertKindName(): (kind: string) => string {
  const t = useTranslations("alerts.kindNames");
  return (kind) => {
    const key = kind.replaceAll(".", "_");
    return t.has(key) ? t(key as "endpoint_failing") : kind;
  };
}

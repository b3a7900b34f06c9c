"use client";

import { useTranslations } from "next-intl";
import { usePortalSession } from "../session-context";

/** Why this link may not change endpoints or see secrets, in words, or null when it may. */
export function usePortalReasons() {
  const t = useTranslations("portalEndpoints.reasons");
  const { can, mayRotateSecrets, theme } = usePortalSession();
  const secrets = can("view_secrets") ? null : t("secrets", { product: theme.name });
  return {
    manage: can("manage_endpoints") ? null : t("manage", { product: theme.name }),
    secrets,
    rotate: secrets ?? (mayRotateSecrets ? null : t("rotate", { product: theme.name })),
  };
}

"use client";

import { useTranslations } from "next-intl";
import { AlertEmailsCard } from "../../shared/alert-emails-card";
import { ErrorMessage } from "../../shared/error-message";
import { useConsumer } from "../../shared/queries/consumers";
import { Skeleton } from "../../ui/skeleton";
import { usePortalSession } from "../session-context";

/** Who on the customer's side hears when an endpoint fails, is disabled or recovers. A link that may manage endpoints may change it. */
export function PortalAlertEmailsScreen() {
  const t = useTranslations("portalAlertEmails");
  const { consumerId, theme, can } = usePortalSession();
  const consumer = useConsumer(consumerId);
  return (
    <div className="max-w-2xl">
      <h1 className="text-xl font-semibold">{t("title")}</h1>
      <p className="mt-1 mb-6 text-sm text-muted-foreground">{t("description", { product: theme.name })}</p>
      {consumer.isPending ? (
        <Skeleton className="h-40 w-full" />
      ) : consumer.isError ? (
        <ErrorMessage error={consumer.error} retry={() => consumer.refetch()} />
      ) : (
        <>
          <AlertEmailsCard consumer={consumer.data} reason={can("manage_endpoints") ? null : t("readOnly", { product: theme.name })} />
          {consumer.data.alert_emails.length === 0 ? (
            <p className="mt-3 text-sm text-muted-foreground" data-testid="alert-emails-empty">
              {t("empty")}
            </p>
          ) : null}
        </>
      )}
    </div>
  );
}

"use client";

import { ArrowLeft, FileX, RotateCw, SearchX, Trash2 } from "lucide-react";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { toast } from "sonner";
import { ConfirmDialog } from "../../ui/alert-dialog";
import { Button } from "../../ui/button";
import { Card } from "../../ui/card";
import { CopyButton } from "../../ui/copy-button";
import { EmptyState } from "../../ui/empty-state";
import { Skeleton } from "../../ui/skeleton";
import { ApiError } from "../api";
import { AttemptView } from "../attempt-view";
import { ErrorMessage, useErrorText } from "../error-message";
import { QueryRows } from "../query-rows";
import { JsonBlock } from "../json-block";
import { ConsumerName, EndpointName, endpointLabel } from "../names";
import { PageHeader } from "../page-header";
import { useExpungePayload, useMessage, useMessageAttempts, useResend } from "../queries/messages";
import { RelativeTime } from "../relative-time";
import { DeliveryStatus } from "./delivery-status";
import { FilteredOut } from "./filtered-out";
import { SchemaViolations } from "./schema-violations";

/**
 * One message: its payload as text, each delivery with its attempts, and resend. Who may resend
 * is the caller's to say (an operator's role, a portal session's capability), with the reason
 * shown when not; the server decides again either way. Where `canExpunge` (an admin), the payload
 * can be deleted, after a confirmation; an expunged payload is shown as gone, with when. The
 * endpoints whose payload filter refused it are listed apart, since they have no delivery.
 */
export function MessageDetail({
  id,
  back,
  cannotResend,
  showConsumer,
  endpointHref,
  canExpunge = false,
}: {
  id: string;
  back: { href: string; label: string };
  /** Why this viewer may not resend; undefined when they may. */
  cannotResend?: string;
  showConsumer: boolean;
  /** Where an endpoint's name links, where the viewer has its page. */
  endpointHref?: (id: string) => string;
  /** Offer "Delete payload" (DELETE /messages/{id}/payload). */
  canExpunge?: boolean;
}) {
  const t = useTranslations("messageLog.detail");
  const common = useTranslations("common");
  const errorText = useErrorText();
  const message = useMessage(id);
  const attempts = useMessageAttempts(id);
  const resend = useResend(id);
  const expunge = useExpungePayload(id);

  const send = (endpointIds: string[]) =>
    resend.mutate(endpointIds, {
      onSuccess: ({ count, outOfOrder }) =>
        toast.success(t("resent", { count }), outOfOrder > 0 ? { description: t("resentOutOfOrder", { count: outOfOrder }) } : undefined),
      onError: (error) => toast.error(errorText(error)),
    });
  // A message whose payload is gone can never be sent again, whoever asks.
  const expunged = message.data?.payload_expunged_at ? t("expungedCannotResend") : undefined;
  const resendButton = (endpointIds: string[], label: string) => (
    <Button
      variant="secondary"
      size="sm"
      disabled={!!cannotResend || !!expunged || resend.isPending || endpointIds.length === 0}
      title={cannotResend ?? expunged}
      onClick={() => send(endpointIds)}
    >
      <RotateCw aria-hidden className="h-3.5 w-3.5" />
      {label}
    </Button>
  );
  const backLink = (
    <Link href={back.href} className="mb-3 inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
      <ArrowLeft aria-hidden className="h-4 w-4" />
      {back.label}
    </Link>
  );

  if (message.isPending) return <Skeleton className="h-64 w-full" />;
  if (message.isError) {
    // Another consumer's message is a 404 too: the page names nothing but the id it was given.
    if (message.error instanceof ApiError && message.error.problem.status === 404)
      return (
        <>
          {backLink}
          <EmptyState icon={SearchX} title={t("notFoundTitle")} description={t("notFoundDescription")} />
        </>
      );
    return <ErrorMessage error={message.error} retry={() => message.refetch()} />;
  }
  const m = message.data;
  return (
    <>
      {backLink}
      <PageHeader
        title={t("title", { eventType: m.event_type })}
        actions={
          <>
            {resendButton(m.deliveries.map((d) => d.endpoint_id), t("resendAll"))}
            {canExpunge && !m.payload_expunged_at ? (
              <ConfirmDialog
                trigger={
                  <Button variant="secondary" size="sm">
                    <Trash2 aria-hidden className="h-3.5 w-3.5" />
                    {t("expunge")}
                  </Button>
                }
                title={t("expungeTitle")}
                description={t("expungeDescription")}
                confirmLabel={t("expungeConfirm")}
                cancelLabel={common("cancel")}
                onConfirm={() =>
                  expunge.mutateAsync().then(
                    () => toast.success(t("expunged")),
                    (error: unknown) => toast.error(errorText(error)),
                  )
                }
              />
            ) : null}
          </>
        }
      />
      {cannotResend ? <p className="mb-4 text-sm text-muted-foreground">{cannotResend}</p> : null}
      <Card className="mb-4 p-4">
        <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2 lg:grid-cols-4">
          <div className="min-w-0">
            <dt className="text-xs text-muted-foreground">{t("id")}</dt>
            <dd className="flex min-w-0 items-center gap-1 font-mono text-xs">
              <span className="min-w-0 break-all">{m.id}</span>
              <CopyButton value={m.id} label={t("copyId")} copiedLabel={common("copied")} failedLabel={common("copyFailed")} />
            </dd>
          </div>
          {showConsumer ? (
            <div>
              <dt className="text-xs text-muted-foreground">{t("consumer")}</dt>
              <dd className="text-sm">
                <ConsumerName id={m.consumer_id} consumer={m.consumer} href={`/consumers/${encodeURIComponent(m.consumer_id)}`} />
              </dd>
            </div>
          ) : null}
          <div>
            <dt className="text-xs text-muted-foreground">{t("eventId")}</dt>
            <dd className="font-mono text-xs">{m.event_id ?? "—"}</dd>
          </div>
          <div>
            <dt className="text-xs text-muted-foreground">{t("created")}</dt>
            <dd>
              <RelativeTime value={m.created_at} />
            </dd>
          </div>
        </dl>
      </Card>
      <SchemaViolations message={m} />
      <h2 className="mb-2 text-sm font-semibold">{t("payload")}</h2>
      <div className="mb-6" data-testid="payload">
        {m.payload_expunged_at ? (
          <div data-testid="payload-expunged" className="flex items-start gap-3 rounded-md border border-border bg-muted p-3 text-sm">
            <FileX aria-hidden className="mt-0.5 h-4 w-4 shrink-0 text-muted-foreground" />
            <div>
              <p className="font-medium">
                {t("payloadExpungedTitle")} <RelativeTime value={m.payload_expunged_at} />
              </p>
              <p className="mt-1 text-muted-foreground">{t("payloadExpungedBody")}</p>
            </div>
          </div>
        ) : (
          <JsonBlock value={m.payload} label={t("payload")} />
        )}
      </div>
      <h2 className="mb-2 text-sm font-semibold">{t("deliveries")}</h2>
      {m.deliveries.length === 0 ? <p className="text-sm text-muted-foreground">{t(m.filtered.length > 0 ? "noDeliveriesFiltered" : "noDeliveries")}</p> : null}
      <div className="space-y-4">
        {m.deliveries.map((d) => {
          const own = attempts.data?.data.filter((a) => a.delivery_id === d.id) ?? [];
          return (
            <Card key={d.id} className="p-4" aria-label={t("deliveryTo", { endpoint: d.endpoint ? endpointLabel(d.endpoint) : d.endpoint_id })} data-testid="delivery">
              <div className="mb-3 flex flex-wrap items-center gap-3">
                <DeliveryStatus status={d.status} />
                <span className="min-w-0 text-sm">
                  <EndpointName id={d.endpoint_id} endpoint={d.endpoint} href={endpointHref?.(d.endpoint_id)} inline />
                </span>
                <span className="text-xs text-muted-foreground">{t("attemptCount", { count: d.attempts })}</span>
                {d.next_attempt_at ? (
                  <span className="text-xs text-muted-foreground">
                    {t("nextAttempt")} <RelativeTime value={d.next_attempt_at} />
                  </span>
                ) : null}
                <span className="ml-auto">{resendButton([d.endpoint_id], t("resend"))}</span>
              </div>
              <QueryRows
                query={attempts}
                isEmpty={() => own.length === 0}
                empty={<p className="text-sm text-muted-foreground">{t(d.status === "pending" ? "noAttempts" : "noAttemptsMade")}</p>}
                skeletonRows={1}
              >
                {() => (
                  <div className="space-y-2">
                    {own.map((a) => (
                      <AttemptView key={a.id} attempt={a} />
                    ))}
                  </div>
                )}
              </QueryRows>
            </Card>
          );
        })}
      </div>
      <FilteredOut filtered={m.filtered} endpointHref={endpointHref} />
    </>
  );
}

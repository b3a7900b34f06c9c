"use client";

import type { ColumnDef } from "@tanstack/react-table";
import { ArrowLeft, ListChecks } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useMemo } from "react";
import { toast } from "sonner";
import { ConfirmDialog } from "../../ui/alert-dialog";
import { Badge } from "../../ui/badge";
import { Button } from "../../ui/button";
import { Card } from "../../ui/card";
import { Skeleton } from "../../ui/skeleton";
import { useApi } from "../api-context";
import { DownloadButton } from "../download-button";
import { ErrorMessage, useErrorText } from "../error-message";
import { LogTable } from "../log-table";
import { ConsumerName, EndpointName, endpointLabel } from "../names";
import { PageHeader } from "../page-header";
import { fetchItems, recoveryKeys, useRecovery, useRecoveryAction, type RecoveryItem } from "../queries/recoveries";
import { RecoveryProgress } from "../recovery-progress";
import { RelativeTime } from "../relative-time";
import { ACTIVE_RECOVERY_STATES } from "../types";
import { toQuery, useUrlFilters } from "../use-url-filters";

const OUTCOMES = ["pending", "queued", "succeeded", "failed", "skipped"] as const;
const OUTCOME_TONES = { pending: "neutral", queued: "primary", succeeded: "success", failed: "danger", skipped: "neutral" } as const;

/**
 * One run: its live progress, pause, resume, cancel and retry-failed, and its reconciliation
 * report filtered by outcome, downloadable as CSV. Who may change the run is the caller's to say
 * (an operator's role, a portal session's `recover`), with the reason shown; the server decides again.
 */
export function RecoveryDetail({
  id,
  back,
  runHref,
  messageHref,
  cannotChange,
  endpointName,
  consumerWide,
  endpointHref,
  showOwner,
}: {
  id: string;
  back: { href: string; label: string };
  runHref: (id: string) => string;
  messageHref: (id: string) => string;
  cannotChange?: string;
  /** An endpoint as the viewer knows it (a customer, by its URL); its id otherwise. */
  endpointName?: (id: string) => string | undefined;
  /** What a run over the whole consumer is for, in words (the portal's "all my endpoints"); the consumer's name otherwise. */
  consumerWide?: string;
  /** Where an endpoint's name links, where the viewer has its page. */
  endpointHref?: (id: string) => string;
  /** Show whose run it is and who started it (the dashboard; a customer knows). */
  showOwner?: boolean;
}) {
  const t = useTranslations("recoveryRuns.detail");
  const common = useTranslations("common");
  const statusName = useTranslations("recoveryRuns.create.statuses");
  const names = useTranslations("names");
  const actors = useTranslations("audit.actors");
  const runs = useTranslations("recoveryRuns");
  const errorText = useErrorText();
  const router = useRouter();
  const recovery = useRecovery(id);
  const call = useApi();
  const action = useRecoveryAction(id);
  const { values, set } = useUrlFilters(["outcome"] as const);

  const columns = useMemo<ColumnDef<RecoveryItem, unknown>[]>(
    () => [
      {
        header: t("columns.message"),
        accessorKey: "message_id",
        cell: ({ row }) => (
          <Link href={messageHref(row.original.message_id)} className="font-mono text-xs text-primary underline-offset-2 hover:underline">
            {row.original.message_id}
          </Link>
        ),
      },
      {
        header: t("columns.endpoint"),
        accessorKey: "endpoint_id",
        cell: ({ row }) => (
          <EndpointName id={row.original.endpoint_id} endpoint={row.original.endpoint} name={endpointName?.(row.original.endpoint_id)} href={endpointHref?.(row.original.endpoint_id)} />
        ),
      },
      {
        header: t("columns.outcome"),
        accessorKey: "outcome",
        cell: ({ row }) => (
          <span className="flex flex-wrap items-center gap-2">
            <Badge tone={OUTCOME_TONES[row.original.outcome]}>{t(`outcomes.${row.original.outcome}`)}</Badge>
            {row.original.skip_reason ? <span className="text-xs text-muted-foreground">{t(`skipReasons.${row.original.skip_reason}` as "skipReasons.already_succeeded")}</span> : null}
          </span>
        ),
      },
      {
        header: t("columns.answer"),
        id: "answer",
        cell: ({ row }) => <span className="font-mono text-xs">{row.original.status_code ?? row.original.error ?? "—"}</span>,
      },
      { header: t("columns.updated"), accessorKey: "updated_at", cell: ({ row }) => <RelativeTime value={row.original.updated_at} /> },
    ],
    [t, messageHref, endpointName, endpointHref],
  );

  if (recovery.isPending) return <Skeleton className="h-64 w-full" />;
  if (recovery.isError) return <ErrorMessage error={recovery.error} retry={() => recovery.refetch()} />;
  const r = recovery.data;
  const active = ACTIVE_RECOVERY_STATES.includes(r.state);
  const disabledReason = cannotChange;
  const run = (move: "pause" | "resume" | "cancel" | "retry-failed") =>
    action.mutateAsync(move).then(
      (next) => {
        toast.success(t(`done.${move}`));
        if (next.id !== r.id) router.push(runHref(next.id));
      },
      (error: unknown) => toast.error(errorText(error)),
    );
  const button = (move: "pause" | "resume" | "retry-failed", show: boolean) =>
    show ? (
      <Button variant="secondary" disabled={!!disabledReason || action.isPending} title={disabledReason} onClick={() => run(move)}>
        {t(`actions.${move}`)}
      </Button>
    ) : null;
  const target = r.endpoint_id
    ? (endpointName?.(r.endpoint_id) ?? (r.endpoint ? endpointLabel(r.endpoint) : `${names("deleted")} ${r.endpoint_id}`))
    : (consumerWide ?? r.consumer?.name ?? `${names("deleted")} ${r.consumer_id}`);
  const csv = `/recoveries/${encodeURIComponent(r.id)}/items?${toQuery({ format: "csv", outcome: values.outcome })}`;

  return (
    <>
      <Link href={back.href} className="mb-3 inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
        <ArrowLeft aria-hidden className="h-4 w-4" />
        {back.label}
      </Link>
      <PageHeader
        title={t("title", { id: r.id })}
        description={t("scope", { target })}
        actions={
          <>
            {button("pause", r.state === "planned" || r.state === "canary" || r.state === "running")}
            {button("resume", r.state === "paused")}
            {button("retry-failed", !active && r.counts.failed > 0)}
            {active ? (
              <ConfirmDialog
                trigger={
                  <Button variant="danger" disabled={!!disabledReason || action.isPending} title={disabledReason}>
                    {t("actions.cancel")}
                  </Button>
                }
                title={t("cancelTitle")}
                description={t("cancelDescription")}
                confirmLabel={t("actions.cancel")}
                cancelLabel={common("cancel")}
                onConfirm={() => run("cancel")}
              />
            ) : null}
          </>
        }
      />
      {disabledReason ? <p className="mb-4 text-sm text-muted-foreground">{disabledReason}</p> : null}
      <Card className="mb-4 p-5">
        <RecoveryProgress recovery={r} />
        <dl className="mt-4 grid gap-x-6 gap-y-2 border-t border-border pt-4 text-sm sm:grid-cols-2 lg:grid-cols-4">
          {showOwner ? (
            <>
              <div>
                <dt className="text-xs text-muted-foreground">{t("consumer")}</dt>
                <dd data-testid="recovery-consumer">
                  <ConsumerName id={r.consumer_id} consumer={r.consumer} href={`/consumers/${encodeURIComponent(r.consumer_id)}`} />
                </dd>
              </div>
              <div>
                <dt className="text-xs text-muted-foreground">{t("endpoint")}</dt>
                <dd data-testid="recovery-endpoint">
                  {r.endpoint_id ? <EndpointName id={r.endpoint_id} endpoint={r.endpoint} href={endpointHref?.(r.endpoint_id)} /> : runs("allEndpoints")}
                </dd>
              </div>
              <div className="sm:col-span-2">
                <dt className="text-xs text-muted-foreground">{t("startedBy")}</dt>
                <dd data-testid="recovery-started-by" title={r.created_by.id ?? undefined}>
                  {r.created_by.name ?? (r.created_by.type === "system" ? actors("system") : `${names("deleted")} ${r.created_by.id ?? ""}`)}
                  {r.created_by.name ? <span className="ml-1.5 text-xs text-muted-foreground">{actors(r.created_by.type)}</span> : null}
                </dd>
              </div>
            </>
          ) : null}
          <div>
            <dt className="text-xs text-muted-foreground">{t("window")}</dt>
            <dd>
              <RelativeTime value={r.scope.since} /> → <RelativeTime value={r.scope.until} />
            </dd>
          </div>
          <div>
            <dt className="text-xs text-muted-foreground">{t("statuses")}</dt>
            <dd>{[...r.scope.statuses.map((s) => (statusName.has(s) ? statusName(s as "failed") : s)), ...(r.scope.include_never_attempted ? [t("neverAttempted")] : [])].join(", ")}</dd>
          </div>
          <div>
            <dt className="text-xs text-muted-foreground">{t("eventTypes")}</dt>
            <dd>{r.scope.event_types?.join(", ") ?? t("allEventTypes")}</dd>
          </div>
          <div>
            <dt className="text-xs text-muted-foreground">{t("options")}</dt>
            <dd>{t("optionsValue", { rate: r.options.rate_per_second, canary: r.options.canary, ratio: Math.round(r.options.stop_if_failure_ratio * 100) })}</dd>
          </div>
          <div>
            <dt className="text-xs text-muted-foreground">{t("created")}</dt>
            <dd>
              <RelativeTime value={r.created_at} />
            </dd>
          </div>
          <div>
            <dt className="text-xs text-muted-foreground">{t("finished")}</dt>
            <dd>
              <RelativeTime value={r.finished_at} never={t("notFinished")} />
            </dd>
          </div>
        </dl>
      </Card>
      <div className="mb-2 flex flex-wrap items-end justify-between gap-3">
        <h2 className="text-sm font-semibold">{t("report")}</h2>
        <div className="flex items-center gap-2">
          <label htmlFor="outcome-filter" className="text-xs text-muted-foreground">
            {t("outcomeFilter")}
          </label>
          <select id="outcome-filter" value={values.outcome} onChange={(e) => set({ outcome: e.target.value })} className="h-8 rounded-md border border-border bg-surface px-2 text-xs">
            <option value="">{t("allOutcomes")}</option>
            {OUTCOMES.map((o) => (
              <option key={o} value={o}>
                {t(`outcomes.${o}`)}
              </option>
            ))}
          </select>
          <DownloadButton route="GET /recoveries/{id}/items" path={csv} filename={`${r.id}-items${values.outcome ? `-${values.outcome}` : ""}.csv`} label={t("csv")} />
        </div>
      </div>
      <Card>
        <LogTable
          queryKey={recoveryKeys.items(r.id, values.outcome)}
          fetchPage={(cursor) => fetchItems(call, r.id, toQuery({ outcome: values.outcome, limit: "50", cursor: cursor ?? "" }))}
          columns={columns}
          rowLabel={(item) => `${item.message_id} ${item.endpoint_id}`}
          refetchInterval={active ? 2_000 : false}
          empty={{ icon: ListChecks, title: t("emptyTitle"), description: values.outcome ? t("emptyFiltered") : t("emptyDescription") }}
        />
      </Card>
    </>
  );
}

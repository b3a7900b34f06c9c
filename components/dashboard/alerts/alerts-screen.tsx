"use client";

import { Bell, BellOff } from "lucide-react";
import { ALERT_KINDS, TEST_ALERT_KIND } from "@/lib/alerts/kinds";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useTranslations } from "next-intl";
import { toast } from "sonner";
import { useErrorText } from "../../shared/error-message";
import { ConsumerName, DeletedName, EndpointName } from "../../shared/names";
import { EndpointPicker } from "../../shared/pickers";
import { RelativeTime } from "../../shared/relative-time";
import { ConfirmDialog } from "../../ui/alert-dialog";
import { Badge } from "../../ui/badge";
import { Button } from "../../ui/button";
import { Card } from "../../ui/card";
import { EmptyState } from "../../ui/empty-state";
import { Select } from "../../ui/input";
import { TBody, THead, Table, Td, Th, Tr } from "../../ui/table";
import { useOperator } from "../operator-context";
import { PageHeader } from "../../shared/page-header";
import { QueryRows } from "../../shared/query-rows";
import { useAlertKindName } from "./alert-kind-name";
import { ChannelDialog } from "./channel-dialog";
import { useAlertChannels, useAlertLog, useDeleteChannel, useTestChannel, type Alert } from "./queries";

const STATUS_TONE = { sent: "success", suppressed: "neutral", failed: "danger" } as const;

export function AlertsScreen() {
  const t = useTranslations("alerts");
  const common = useTranslations("common");
  const errorText = useErrorText();
  const kindName = useAlertKindName();
  const { role } = useOperator();
  const reason = role === "admin" ? null : t("viewerNote");
  const channels = useAlertChannels();
  const remove = useDeleteChannel();
  const test = useTestChannel();
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const filters = { kind: params.get("kind") ?? undefined, endpoint_id: params.get("endpoint_id") ?? undefined };
  const log = useAlertLog(filters);
  const alerts = log.data?.pages.flatMap((p) => p.data) ?? [];
  const setFilter = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    router.replace(`${pathname}${next.size ? `?${next}` : ""}`);
  };

  return (
    <>
      <PageHeader title={t("title")} description={t("description")} actions={<ChannelDialog disabledReason={reason} />} />
      {reason ? <p className="mb-4 text-sm text-muted-foreground">{reason}</p> : null}
      <h2 className="mb-3 text-lg font-semibold">{t("channels")}</h2>
      <Card>
        <QueryRows query={channels} isEmpty={(page) => page.data.length === 0} empty={<EmptyState icon={BellOff} title={t("noChannelsTitle")} description={t("noChannelsDescription")} />}>
          {(page) => (
            <Table>
              <THead>
                <Tr>
                  <Th>{t("columns.name")}</Th>
                  <Th>{t("columns.kind")}</Th>
                  <Th>{t("columns.target")}</Th>
                  <Th>{t("columns.alertKinds")}</Th>
                  <Th className="text-right">
                    <span className="sr-only">{common("actions")}</span>
                  </Th>
                </Tr>
              </THead>
              <TBody>
                {page.data.map((c) => (
                  <Tr key={c.id} aria-label={c.name}>
                    <Td className="font-medium">{c.name}</Td>
                    <Td>
                      <Badge>{t(`channel.kinds.${c.kind}`)}</Badge>
                    </Td>
                    <Td className="text-xs break-all">
                      {Object.entries(c.config).map(([k, v], i) => (
                        <span key={k}>
                          {i > 0 ? " · " : null}
                          {t.has(`channel.fields.${k}`) ? t(`channel.fields.${k}` as "channel.fields.url") : k}:{" "}
                          <span className="font-mono">{Array.isArray(v) ? v.join(", ") : String(v)}</span>
                        </span>
                      ))}
                    </Td>
                    <Td className="text-xs">{c.kinds?.map(kindName).join(", ") ?? t("allKinds")}</Td>
                    <Td className="text-right whitespace-nowrap">
                      <div className="flex justify-end gap-1.5">
                        <Button
                          variant="secondary"
                          size="sm"
                          disabled={reason !== null || test.isPending}
                          title={reason ?? undefined}
                          onClick={() =>
                            test.mutate(c.id, { onSuccess: () => toast.success(t("testSent", { name: c.name })), onError: (e) => toast.error(errorText(e)) })
                          }
                        >
                          {t("test")}
                        </Button>
                        <ChannelDialog channel={c} disabledReason={reason} />
                        <ConfirmDialog
                          trigger={
                            <Button variant="secondary" size="sm" disabled={reason !== null} title={reason ?? undefined}>
                              {t("delete")}
                            </Button>
                          }
                          title={t("deleteTitle", { name: c.name })}
                          description={t("deleteDescription")}
                          confirmLabel={t("delete")}
                          cancelLabel={common("cancel")}
                          onConfirm={() =>
                            remove.mutateAsync(c.id).then(
                              () => toast.success(t("deleted", { name: c.name })),
                              (e: unknown) => toast.error(errorText(e)),
                            )
                          }
                        />
                      </div>
                    </Td>
                  </Tr>
                ))}
              </TBody>
            </Table>
          )}
        </QueryRows>
      </Card>

      <h2 className="mt-8 mb-3 text-lg font-semibold">{t("log")}</h2>
      <div className="mb-3 flex flex-wrap gap-2">
        <label className="sr-only" htmlFor="alert-kind-filter">
          {t("filterKind")}
        </label>
        <Select id="alert-kind-filter" className="max-w-56" value={filters.kind ?? ""} onChange={(e) => setFilter("kind", e.target.value)}>
          <option value="">{t("allKindsFilter")}</option>
          {[...ALERT_KINDS, TEST_ALERT_KIND].map((k) => (
            <option key={k} value={k}>
              {kindName(k)}
            </option>
          ))}
        </Select>
        <label className="sr-only" id="alert-endpoint-filter-label" htmlFor="alert-endpoint-filter">
          {t("filterEndpoint")}
        </label>
        <div className="w-72 max-w-full">
          <EndpointPicker id="alert-endpoint-filter" value={filters.endpoint_id ?? ""} allowAny onChange={(id) => setFilter("endpoint_id", id)} />
        </div>
      </div>
      <Card>
        <QueryRows query={log} isEmpty={() => alerts.length === 0} empty={<EmptyState icon={Bell} title={t("noAlertsTitle")} description={t("noAlertsDescription")} />}>
          {() => <AlertTable alerts={alerts} />}
        </QueryRows>
      </Card>
      {log.hasNextPage ? (
        <div className="mt-4 flex justify-center">
          <Button variant="secondary" onClick={() => log.fetchNextPage()} disabled={log.isFetchingNextPage}>
            {common("loadMore")}
          </Button>
        </div>
      ) : null}
    </>
  );
}

/** The alert log's rows; the overview shows the latest few with it too. */
export function AlertTable({ alerts }: { alerts: Alert[] }) {
  const t = useTranslations("alerts");
  const kindName = useAlertKindName();
  return (
    <Table>
      <THead>
        <Tr>
          <Th>{t("columns.when")}</Th>
          <Th>{t("columns.alertKind")}</Th>
          <Th>{t("columns.status")}</Th>
          <Th>{t("columns.endpoint")}</Th>
          <Th>{t("columns.to")}</Th>
        </Tr>
      </THead>
      <TBody>
        {alerts.map((a) => (
          <Tr key={a.id} aria-label={a.kind}>
            <Td>
              <RelativeTime value={a.created_at} />
            </Td>
            <Td className="text-xs">{kindName(a.kind)}</Td>
            <Td>
              <Badge tone={STATUS_TONE[a.status]}>{t(`statuses.${a.status}`)}</Badge>
              {a.folded > 0 ? <span className="ml-1 text-xs text-muted-foreground">{t("folded", { count: a.folded })}</span> : null}
              {a.error ? <p className="mt-0.5 text-xs text-danger">{a.error}</p> : null}
            </Td>
            <Td className="max-w-xs text-sm">
              {/* A consumer-wide recovery's alert is about its consumer. */}
              {a.endpoint_id ? (
                <EndpointName id={a.endpoint_id} endpoint={a.endpoint} href={`/endpoints/${a.endpoint_id}`} />
              ) : a.consumer_id ? (
                <ConsumerName id={a.consumer_id} consumer={a.consumer} href={`/consumers/${encodeURIComponent(a.consumer_id)}`} />
              ) : (
                "—"
              )}
            </Td>
            <Td className="text-xs">
              {a.recipient ? (
                <span className="font-mono">{a.recipient}</span>
              ) : a.channel_id ? (
                a.channel ? (
                  <span title={a.channel_id}>
                    {a.channel.name} <span className="text-muted-foreground">· {t(`channel.kinds.${a.channel.kind}`)}</span>
                  </span>
                ) : (
                  <DeletedName id={a.channel_id} />
                )
              ) : (
                "—"
              )}
            </Td>
          </Tr>
        ))}
      </TBody>
    </Table>
  );
}

"use client";

import type { ColumnDef } from "@tanstack/react-table";
import { Mail } from "lucide-react";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { useMemo } from "react";
import { Badge } from "../../ui/badge";
import { Button } from "../../ui/button";
import { Card } from "../../ui/card";
import { useApi } from "../api-context";
import { LogTable } from "../log-table";
import { ConsumerName, endpointLabel } from "../names";
import { fetchMessages, messageKeys, type MessageFilter, type MessageSummary } from "../queries/messages";
import { RelativeTime } from "../relative-time";
import { toQuery, useUrlFilters } from "../use-url-filters";
import { DeliveryStatus } from "./delivery-status";
import { MessageFilters, type EndpointOption } from "./message-filters";

/**
 * The message log both audiences read: its filters in the URL, keyset "load more", live refresh.
 * The dashboard filters by consumer and shows it; the portal's session is one consumer already.
 */
export function MessageLog({
  fields,
  messageHref,
  showConsumer,
  empty,
  endpoints,
}: {
  fields: readonly MessageFilter[];
  messageHref: (id: string) => string;
  showConsumer: boolean;
  /** What to say, and what to do next, while nothing was ever sent. */
  empty: { title: string; description: React.ReactNode };
  /** Offered as the endpoint filter's choices (see MessageFilters). */
  endpoints?: EndpointOption[];
}) {
  const t = useTranslations("messageLog");
  const call = useApi();
  const { values, set } = useUrlFilters(fields);
  const filtered = Object.values(values).some(Boolean);
  const columns = useMemo<ColumnDef<MessageSummary, unknown>[]>(
    () => [
      {
        header: t("columns.message"),
        accessorKey: "id",
        cell: ({ row }) => (
          <Link href={messageHref(row.original.id)} className="font-mono text-xs text-primary underline-offset-2 hover:underline">
            {row.original.id}
          </Link>
        ),
      },
      {
        header: t("columns.eventType"),
        accessorKey: "event_type",
        cell: ({ row }) => (
          <span className="flex flex-wrap items-center gap-1.5">
            <code className="text-xs">{row.original.event_type}</code>
            {row.original.schema_violations?.length ? (
              <Badge tone="warning" title={t("schemaBrokenTitle", { version: row.original.schema_version ?? 0 })} data-testid="schema-broken">
                {t("schemaBroken")}
              </Badge>
            ) : null}
          </span>
        ),
      },
      ...(showConsumer
        ? [
            {
              header: t("columns.consumer"),
              accessorKey: "consumer_id",
              cell: ({ row }) => <ConsumerName id={row.original.consumer_id} consumer={row.original.consumer} href={`/consumers/${encodeURIComponent(row.original.consumer_id)}`} />,
            } satisfies ColumnDef<MessageSummary, unknown>,
          ]
        : []),
      {
        header: t("columns.deliveries"),
        id: "deliveries",
        cell: ({ row }) =>
          row.original.deliveries.length === 0 ? (
            <span className="text-xs text-muted-foreground">{t("noDeliveries")}</span>
          ) : (
            <ul className="flex flex-col gap-1">
              {/* Each endpoint by its description, else its URL shortened; the whole URL and the id on hover. */}
              {row.original.deliveries.map((d) => (
                <li key={d.id} className="flex min-w-0 items-center gap-1.5" title={d.endpoint ? `${d.endpoint.url}\n${d.endpoint_id}` : d.endpoint_id}>
                  <DeliveryStatus status={d.status} />
                  <span className="max-w-64 truncate text-xs text-muted-foreground">{d.endpoint ? endpointLabel(d.endpoint) : d.endpoint_id}</span>
                </li>
              ))}
            </ul>
          ),
      },
      { header: t("columns.created"), accessorKey: "created_at", cell: ({ row }) => <RelativeTime value={row.original.created_at} /> },
    ],
    [t, messageHref, showConsumer],
  );
  const clear = () => set(Object.fromEntries(fields.map((k) => [k, ""])));
  // Keyed by the URL's filters, so the form below is rebuilt when they change from outside (back button).
  const key = toQuery(values);
  return (
    <>
      <Card className="mb-4">
        <MessageFilters key={key} fields={fields} values={values} onApply={set} endpoints={endpoints} />
      </Card>
      <Card>
        <LogTable
          queryKey={messageKeys.list(values)}
          fetchPage={(cursor) => fetchMessages(call, toQuery(values, { limit: "50", cursor: cursor ?? undefined }))}
          columns={columns}
          rowLabel={(m) => m.id}
          empty={
            filtered
              ? {
                  icon: Mail,
                  title: t("emptyFilteredTitle"),
                  description: t("emptyFilteredDescription"),
                  action: (
                    <Button variant="secondary" onClick={clear}>
                      {t("filters.clear")}
                    </Button>
                  ),
                }
              : { icon: Mail, ...empty }
          }
        />
      </Card>
    </>
  );
}

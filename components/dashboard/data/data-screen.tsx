"use client";

import { Archive, Trash2 } from "lucide-react";
import { useFormatter, useTranslations } from "next-intl";
import { ErrorMessage } from "../../shared/error-message";
import { AdminOnly } from "../admin-only";
import { PageHeader } from "../../shared/page-header";
import { RelativeTime } from "../../shared/relative-time";
import { Badge } from "../../ui/badge";
import { Card } from "../../ui/card";
import { EmptyState } from "../../ui/empty-state";
import { Skeleton } from "../../ui/skeleton";
import { Table, TBody, Td, Th, THead, Tr } from "../../ui/table";
import { useOperator } from "../operator-context";
import { useDataLifecycle, type DataLifecycle, type Erasure } from "./queries";

const UNITS = [
  ["d", 86_400_000],
  ["h", 3_600_000],
  ["m", 60_000],
  ["s", 1_000],
] as const;

/** A setting's duration in the reader's words, in its largest whole unit (as it was most likely written). */
function useDuration() {
  const t = useTranslations("dataLifecycle.units");
  return (ms: number) => {
    const [unit, size] = UNITS.find(([, size]) => ms % size === 0) ?? ["ms", 1];
    return unit === "ms" ? t("ms", { count: ms }) : t(unit, { count: ms / size });
  };
}

/** Bytes in the reader's number format, in the largest binary unit under 1024 of it. */
function useBytes() {
  const format = useFormatter();
  return (bytes: number) => {
    const units = ["byte", "kilobyte", "megabyte", "gigabyte", "terabyte"] as const;
    let i = 0;
    let value = bytes;
    while (value >= 1024 && i < units.length - 1) {
      value /= 1024;
      i++;
    }
    return format.number(value, { style: "unit", unit: units[i], unitDisplay: "short", maximumFractionDigits: i === 0 ? 0 : 1 });
  };
}

/**
 * Data & retention (admins only): the retention settings in force, the database's size and its
 * largest tables, the oldest message kept, what the last sweeps removed, and consumer erasures with
 * their progress. Everything comes from GET /data-lifecycle.
 */
export function DataScreen() {
  const t = useTranslations("dataLifecycle");
  const common = useTranslations("common");
  const { role } = useOperator();
  const isAdmin = role === "admin";
  const data = useDataLifecycle(isAdmin);

  if (!isAdmin) return <AdminOnly title={t("title")} emptyTitle={t("adminOnlyTitle")} emptyDescription={t("adminOnlyDescription")} />;
  return (
    <>
      <PageHeader title={t("title")} description={t("description")} />
      {data.isPending ? (
        <div role="status" aria-label={common("loading")} className="grid gap-4 lg:grid-cols-2">
          <Skeleton className="h-56 w-full" />
          <Skeleton className="h-56 w-full" />
          <Skeleton className="h-40 w-full lg:col-span-2" />
        </div>
      ) : data.isError ? (
        <Card>
          <ErrorMessage error={data.error} retry={() => data.refetch()} />
        </Card>
      ) : (
        <div className="grid items-start gap-4 lg:grid-cols-2">
          <Settings settings={data.data.settings} />
          <DatabaseCard data={data.data} />
          <Erasures erasures={data.data.erasures} />
          <Sweeps data={data.data} />
        </div>
      )}
    </>
  );
}

function Settings({ settings }: { settings: DataLifecycle["settings"] }) {
  const t = useTranslations("dataLifecycle");
  const duration = useDuration();
  const format = useFormatter();
  return (
    <Card className="p-4" data-testid="retention-settings">
      <h2 className="mb-1 text-sm font-semibold">{t("settingsTitle")}</h2>
      <p className="mb-3 text-sm text-muted-foreground">{t("settingsDescription")}</p>
      <dl className="divide-y divide-border text-sm">
        {settings.map((s) => (
          <div key={s.key} className="flex items-baseline justify-between gap-4 py-2">
            <dt>
              {t(`settings.${s.key as SettingKey}`)}
              <span className="ml-2 font-mono text-xs text-muted-foreground">{s.key}</span>
            </dt>
            <dd className="shrink-0 font-medium tabular-nums">{s.ms === null ? t("upTo", { count: format.number(Number(s.value)) }) : duration(s.ms)}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}

type SettingKey = "RETENTION_PERIOD" | "SWEEP_INTERVAL" | "STATS_RETENTION" | "STATS_MINUTE_RETENTION" | "AUDIT_RETENTION" | "ERASURE_INLINE_MESSAGES";

function DatabaseCard({ data }: { data: DataLifecycle }) {
  const t = useTranslations("dataLifecycle");
  const format = useFormatter();
  const bytes = useBytes();
  const largest = Math.max(1, ...data.database.tables.map((table) => table.bytes));
  return (
    <Card className="p-4" data-testid="database-size">
      <h2 className="mb-3 text-sm font-semibold">{t("databaseTitle")}</h2>
      <dl className="mb-4 grid grid-cols-2 gap-4 text-sm">
        <div>
          <dt className="text-xs text-muted-foreground">{t("databaseSize")}</dt>
          <dd className="text-xl font-semibold tabular-nums" data-testid="database-bytes">
            {bytes(data.database.bytes)}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-muted-foreground">{t("oldestMessage")}</dt>
          <dd className="mt-1">{data.oldest_message_at ? <RelativeTime value={data.oldest_message_at} /> : <span className="text-muted-foreground">{t("noMessages")}</span>}</dd>
        </div>
      </dl>
      <Table aria-label={t("tablesTitle")}>
        <THead>
          <Tr>
            <Th>{t("columns.table")}</Th>
            <Th className="text-right">{t("columns.size")}</Th>
            <Th className="text-right">{t("columns.rows")}</Th>
          </Tr>
        </THead>
        <TBody>
          {data.database.tables.map((table) => (
            <Tr key={table.name}>
              <Td className="py-2">
                <span className="font-mono text-xs">{table.name}</span>
                <div aria-hidden className="mt-1 h-1 rounded-full bg-primary/50" style={{ width: `${Math.max(2, (table.bytes / largest) * 100)}%` }} />
              </Td>
              <Td className="py-2 text-right whitespace-nowrap tabular-nums">{bytes(table.bytes)}</Td>
              <Td className="py-2 text-right whitespace-nowrap tabular-nums text-muted-foreground">
                {table.rows_estimate === null ? <span title={t("notAnalyzed")}>—</span> : t("approx", { count: format.number(table.rows_estimate) })}
              </Td>
            </Tr>
          ))}
        </TBody>
      </Table>
    </Card>
  );
}

function Sweeps({ data }: { data: DataLifecycle }) {
  const t = useTranslations("dataLifecycle");
  const format = useFormatter();
  const duration = useDuration();
  const interval = data.settings.find((s) => s.key === "SWEEP_INTERVAL")?.ms ?? 60_000;
  return (
    <Card className="lg:col-span-2" data-testid="sweeps">
      <div className="p-4 pb-2">
        <h2 className="text-sm font-semibold">{t("sweepsTitle")}</h2>
        <p className="text-sm text-muted-foreground">{t("sweepsDescription", { interval: duration(interval) })}</p>
      </div>
      {data.sweeps.length === 0 ? (
        <EmptyState icon={Archive} title={t("noSweepsTitle")} description={t("noSweepsDescription", { interval: duration(interval) })} />
      ) : (
        <Table aria-label={t("sweepsTitle")}>
          <THead>
            <Tr>
              <Th>{t("columns.when")}</Th>
              <Th className="text-right">{t("columns.took")}</Th>
              <Th>{t("columns.removed")}</Th>
            </Tr>
          </THead>
          <TBody>
            {data.sweeps.map((sweep) => {
              const removed = Object.entries(sweep.removed).filter(([, n]) => n > 0);
              return (
                <Tr key={sweep.started_at} data-testid="sweep">
                  <Td className="py-2">
                    <RelativeTime value={sweep.started_at} />
                  </Td>
                  <Td className="py-2 text-right whitespace-nowrap tabular-nums">{t("tookMs", { ms: format.number(sweep.duration_ms) })}</Td>
                  <Td className="py-2 text-sm">
                    {sweep.error ? (
                      <span className="text-danger">{t("sweepError", { error: sweep.error })}</span>
                    ) : removed.length === 0 ? (
                      <span className="text-muted-foreground">{t("nothingDue")}</span>
                    ) : (
                      <span className="flex flex-wrap gap-x-3 gap-y-1">
                        {removed.map(([table, n]) => (
                          <span key={table} className="whitespace-nowrap">
                            <span className="font-mono text-xs text-muted-foreground">{table}</span> <span className="tabular-nums">{format.number(n)}</span>
                          </span>
                        ))}
                        {sweep.more ? <Badge tone="warning">{t("moreDue")}</Badge> : null}
                      </span>
                    )}
                  </Td>
                </Tr>
              );
            })}
          </TBody>
        </Table>
      )}
    </Card>
  );
}

function Erasures({ erasures }: { erasures: Erasure[] }) {
  const t = useTranslations("dataLifecycle");
  return (
    <Card className="lg:col-span-2" data-testid="erasures">
      <div className="p-4 pb-2">
        <h2 className="text-sm font-semibold">{t("erasuresTitle")}</h2>
        <p className="text-sm text-muted-foreground">{t("erasuresDescription")}</p>
      </div>
      {erasures.length === 0 ? (
        <EmptyState icon={Trash2} title={t("noErasuresTitle")} description={t("noErasuresDescription")} />
      ) : (
        <ul className="divide-y divide-border">
          {erasures.map((erasure) => (
            <ErasureRow key={erasure.id} erasure={erasure} />
          ))}
        </ul>
      )}
    </Card>
  );
}

function ErasureRow({ erasure }: { erasure: Erasure }) {
  const t = useTranslations("dataLifecycle");
  const format = useFormatter();
  const { messages_total: total, messages_erased: erased } = erasure.progress;
  const running = erasure.state === "running";
  // A background erasure counts the consumer's messages as its job begins: until then, no total.
  const counting = running && total === 0;
  const rows = Object.values(erasure.counts).reduce((sum, n) => sum + n, 0);
  return (
    <li className="space-y-2 px-4 py-3" data-testid="erasure">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <Badge tone={running ? "primary" : "success"}>{t(`erasureStates.${erasure.state}`)}</Badge>
        <span className="font-mono text-xs">{erasure.consumer_id}</span>
        <span className="text-muted-foreground">
          {t("erasureStarted")} <RelativeTime value={erasure.started_at} />
        </span>
        {erasure.finished_at ? (
          <span className="text-muted-foreground">
            · {t("erasureFinished")} <RelativeTime value={erasure.finished_at} />
          </span>
        ) : null}
      </div>
      <div
        role="progressbar"
        aria-label={t("erasureProgress", { consumer: erasure.consumer_id })}
        aria-valuemin={0}
        aria-valuemax={Math.max(total, 1)}
        aria-valuenow={counting ? undefined : erased}
        className="h-2.5 w-full overflow-hidden rounded-full bg-muted"
      >
        <div className={running ? "h-full bg-primary" : "h-full bg-success"} style={{ width: `${running ? (total > 0 ? (erased / total) * 100 : 0) : 100}%` }} />
      </div>
      <p className="text-xs text-muted-foreground">
        {counting ? t("erasureCounting") : t("erasedOf", { erased: format.number(erased), total: format.number(total) })} ·{" "}
        {t("rowsErased", { rows })}
      </p>
    </li>
  );
}

"use client";

import { useFormatter, useTimeZone, useTranslations } from "next-intl";
import { useMemo, useState } from "react";
import { Bar, BarChart, CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { cn } from "../ui/cn";
import { Skeleton } from "../ui/skeleton";
import { ErrorMessage } from "./error-message";
import { useStatsSeries, type StatsScope } from "./queries/stats";
import { BUCKET_MS, RANGE, STATS_RANGES, axisTicks, totals, type ChartPoint, type StatsRange } from "./stats-series";

// The theme's own colours, so the charts follow light and dark with the rest of the page.
const COLOR = {
  succeeded: "var(--success)",
  failed: "var(--danger)",
  rate: "var(--primary)",
  p50: "var(--primary)",
  p99: "var(--warning)",
  grid: "var(--border)",
  axis: "var(--muted-foreground)",
  cursor: "var(--muted)",
} as const;

const TICK_FORMAT = {
  hour: { hour: "numeric", minute: "2-digit" },
  day: { hour: "numeric" },
  week: { month: "numeric", day: "numeric" },
} as const satisfies Record<StatsRange, Intl.DateTimeFormatOptions>;

const MARGIN = { top: 4, right: 12, bottom: 0, left: 0 };

const AXIS = { stroke: COLOR.grid, tick: { fill: COLOR.axis, fontSize: 11 }, tickLine: false } as const;

/**
 * Volume, success rate and latency over the last hour, day or week, for one endpoint, one
 * consumer, or everything the viewer's credential sees. Used unwrapped: the caller gives it its
 * card and heading. Each chart carries a sentence saying what it shows, for screen readers and
 * for anyone who would rather read than hover.
 */
export function StatsChart({ endpointId, consumer, polled = false }: StatsScope & { polled?: boolean }) {
  const t = useTranslations("charts");
  const [range, setRange] = useState<StatsRange>("day");
  const stats = useStatsSeries({ endpointId, consumer }, range);
  const period = t(`period.${range}`);

  return (
    <div data-testid="stats-chart" className="@container" data-range={range} data-bucket={RANGE[range].bucket}>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <p className="text-xs text-muted-foreground" data-testid="stats-bucket">
          {t(`bucket.${RANGE[range].bucket}`)}
        </p>
        <div role="group" aria-label={t("range")} className="inline-flex rounded-md border border-border p-0.5">
          {STATS_RANGES.map((r) => (
            <button
              key={r}
              type="button"
              aria-pressed={r === range}
              onClick={() => setRange(r)}
              className={cn(
                "rounded px-2.5 py-1 text-xs font-medium transition focus-visible:outline-2 focus-visible:outline-ring",
                r === range ? "bg-primary text-primary-foreground" : "text-muted-foreground hover:bg-muted hover:text-foreground",
              )}
            >
              {t(`ranges.${r}`)}
            </button>
          ))}
        </div>
      </div>
      {stats.isPending ? (
        <div role="status" aria-label={t("loading")} className="grid gap-4 @3xl:grid-cols-3">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-52 w-full" />
          ))}
        </div>
      ) : stats.isError ? (
        <ErrorMessage error={stats.error} retry={() => stats.refetch()} />
      ) : (
        <StatsCharts points={stats.data.points} range={range} period={period} polled={polled} />
      )}
    </div>
  );
}

function StatsCharts({ points, range, period, polled }: { points: ChartPoint[]; range: StatsRange; period: string; polled: boolean }) {
  const t = useTranslations("charts");
  const format = useFormatter();
  const timeZone = useTimeZone() ?? "UTC";
  const sum = totals(points);
  const ticks = useMemo(() => axisTicks(points, range, timeZone), [points, range, timeZone]);

  if (sum.attempts === 0) {
    return (
      <p role="status" data-testid="stats-empty" className="rounded-md border border-dashed border-border p-8 text-center text-sm text-muted-foreground">
        {t("empty", { period })}
      </p>
    );
  }

  const percent = (v: number) => format.number(v, { style: "percent", maximumFractionDigits: 1 });
  const ms = (v: number) => t("ms", { value: v });
  const at = (p: ChartPoint) => format.dateTime(new Date(p.ms), range === "week" ? { month: "short", day: "numeric", hour: "numeric", minute: "2-digit" } : { hour: "numeric", minute: "2-digit" });
  const xAxis = (
    <XAxis
      dataKey="ms"
      ticks={ticks}
      // Narrow charts (three abreast, or the portal's) drop every other label rather than overlap them.
      interval="equidistantPreserveStart"
      tickFormatter={(v: number) => format.dateTime(new Date(v), TICK_FORMAT[range])}
      {...AXIS}
    />
  );
  const tooltip = <Tooltip cursor={{ fill: COLOR.cursor, stroke: COLOR.grid }} isAnimationActive={false} content={(props) => <PointTooltip active={props.active} payload={props.payload} range={range} />} />;

  const lowest = points.reduce<ChartPoint | null>((low, p) => (p.rate !== null && (low === null || p.rate < low.rate!) ? p : low), null)!;
  const slowest = points.reduce<ChartPoint | null>((slow, p) => (p.p99_ms !== null && (slow === null || p.p99_ms > slow.p99_ms!) ? p : slow), null);

  return (
    <div className="grid gap-4 @3xl:grid-cols-3">
      <ChartFigure name="volume" title={t("volume.title")} summary={t("volume.summary", { attempts: sum.attempts, failed: sum.failed, period })}>
        <BarChart data={points} margin={MARGIN} barCategoryGap={range === "hour" ? 1 : 0}>
          <CartesianGrid vertical={false} stroke={COLOR.grid} />
          {xAxis}
          <YAxis allowDecimals={false} width={40} tickFormatter={(v: number) => format.number(v, { notation: "compact" })} {...AXIS} />
          {tooltip}
          <Bar dataKey="succeeded" name={t("succeeded")} stackId="v" fill={COLOR.succeeded} isAnimationActive={false} />
          <Bar dataKey="failed" name={t("failed")} stackId="v" fill={COLOR.failed} isAnimationActive={false} />
        </BarChart>
      </ChartFigure>
      <ChartFigure
        name="rate"
        title={t("rate.title")}
        summary={sum.failed === 0 ? t("rate.summaryAll", { period }) : t("rate.summary", { rate: percent(sum.rate!), period, lowest: percent(lowest.rate!), at: at(lowest) })}
      >
        <LineChart data={points} margin={MARGIN}>
          <CartesianGrid vertical={false} stroke={COLOR.grid} />
          {xAxis}
          <YAxis domain={[0, 1]} ticks={[0, 0.5, 1]} width={40} tickFormatter={(v: number) => format.number(v, { style: "percent" })} {...AXIS} />
          {tooltip}
          <Line dataKey="rate" name={t("rate.title")} stroke={COLOR.rate} strokeWidth={2} dot={<LoneDot stroke={COLOR.rate} />} connectNulls={false} isAnimationActive={false} />
        </LineChart>
      </ChartFigure>
      <ChartFigure
        name="latency"
        // A polling endpoint's attempts last from the message's creation until a poll returned it.
        title={t(polled ? "latency.polledTitle" : "latency.title")}
        summary={
          slowest
            ? t(polled ? "latency.polledSummary" : "latency.summary", { p50: ms(slowest.p50_ms!), p99: ms(slowest.p99_ms!), at: at(slowest) })
            : t(polled ? "latency.polledNone" : "latency.none", { period })
        }
        legend={[
          { label: "p50", color: COLOR.p50 },
          { label: "p99", color: COLOR.p99 },
        ]}
      >
        <LineChart data={points} margin={MARGIN}>
          <CartesianGrid vertical={false} stroke={COLOR.grid} />
          {xAxis}
          <YAxis width={48} tickFormatter={(v: number) => format.number(v, { notation: "compact" })} {...AXIS} />
          {tooltip}
          <Line dataKey="p50_ms" name="p50" stroke={COLOR.p50} strokeWidth={2} dot={<LoneDot stroke={COLOR.p50} />} connectNulls={false} isAnimationActive={false} />
          <Line dataKey="p99_ms" name="p99" stroke={COLOR.p99} strokeWidth={2} dot={<LoneDot stroke={COLOR.p99} />} connectNulls={false} isAnimationActive={false} />
        </LineChart>
      </ChartFigure>
    </div>
  );
}

function ChartFigure({
  name,
  title,
  summary,
  legend,
  children,
}: {
  name: string;
  title: string;
  summary: string;
  legend?: { label: string; color: string }[];
  children: React.ReactElement;
}) {
  return (
    <figure data-testid={`stats-${name}`} className="min-w-0">
      <div className="flex items-baseline justify-between gap-2">
        <h3 className="text-xs font-semibold">{title}</h3>
        {legend ? (
          <ul className="flex gap-3 text-xs text-muted-foreground" aria-hidden>
            {legend.map((l) => (
              <li key={l.label} className="flex items-center gap-1">
                <span className="inline-block h-0.5 w-3 rounded" style={{ background: l.color }} />
                {l.label}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      {/* The drawing repeats what the caption says; screen readers get the caption. */}
      <div aria-hidden className="mt-2 h-40">
        <ResponsiveContainer width="100%" height="100%">
          {children}
        </ResponsiveContainer>
      </div>
      <figcaption data-testid={`stats-${name}-summary`} className="mt-1 text-xs text-muted-foreground">
        {summary}
      </figcaption>
    </figure>
  );
}

/** A bucket whose neighbours had no attempts has no line to sit on; it gets a dot so it is not lost. */
function LoneDot(props: { cx?: number; cy?: number; index?: number; points?: { y?: number | null }[]; value?: unknown; stroke?: string }) {
  const { cx, cy, index = 0, points = [], stroke } = props;
  const has = (i: number) => points[i]?.y !== null && points[i]?.y !== undefined;
  if (cx === undefined || cy === undefined || props.value === null || props.value === undefined) return null;
  if (has(index - 1) || has(index + 1)) return null;
  return <circle cx={cx} cy={cy} r={2.5} fill={stroke} />;
}

function PointTooltip({ active, payload, range }: { active?: boolean; payload?: readonly { payload?: unknown }[]; range: StatsRange }) {
  const t = useTranslations("charts");
  const format = useFormatter();
  const point = payload?.[0]?.payload as ChartPoint | undefined;
  if (!active || !point) return null;
  const start = new Date(point.ms);
  const end = new Date(point.ms + BUCKET_MS[RANGE[range].bucket]);
  const rows: [string, string][] =
    point.attempts === 0
      ? []
      : [
          [t("succeeded"), format.number(point.succeeded)],
          [t("failed"), format.number(point.failed)],
          [t("rate.title"), format.number(point.rate!, { style: "percent", maximumFractionDigits: 1 })],
          ["p50", point.p50_ms === null ? "—" : t("ms", { value: point.p50_ms })],
          ["p99", point.p99_ms === null ? "—" : t("ms", { value: point.p99_ms })],
        ];
  return (
    <div data-testid="stats-tooltip" className="rounded-md border border-border bg-surface px-3 py-2 text-xs text-foreground shadow-md">
      <p className="font-medium">{format.dateTimeRange(start, end, { month: "short", day: "numeric", hour: "numeric", minute: "2-digit" })}</p>
      <p className="mt-0.5 text-muted-foreground">{point.attempts === 0 ? t("noAttempts") : t("attempts", { count: point.attempts })}</p>
      {rows.length ? (
        <dl className="mt-1 grid grid-cols-[auto_auto] gap-x-3 tabular-nums">
          {rows.map(([k, v]) => (
            <div key={k} className="contents">
              <dt className="text-muted-foreground">{k}</dt>
              <dd className="text-right">{v}</dd>
            </div>
          ))}
        </dl>
      ) : null}
    </div>
  );
}

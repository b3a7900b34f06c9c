"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useStatsSeries } from "./queries/stats";
import { totals } from "./stats-series";

const W = 96;
const H = 24;
const PAD = 2;

/**
 * An endpoint's hourly success rate over the last 24 h, small enough for a table cell. The line
 * breaks over hours without attempts; with none at all it is a flat, muted dash. Its label says
 * the same in words.
 */
export function StatsSparkline({ endpointId }: { endpointId: string }) {
  const t = useTranslations("charts.sparkline");
  const format = useFormatter();
  const stats = useStatsSeries({ endpointId }, "day");

  if (stats.isPending) return <span role="img" aria-label={t("loading")} className="inline-block h-6 w-24 animate-pulse rounded bg-muted align-middle" />;
  if (stats.isError) return <span className="text-xs text-muted-foreground">{t("error")}</span>;

  const points = stats.data.points;
  const sum = totals(points);
  const label =
    sum.rate === null ? t("empty") : t("label", { rate: format.number(sum.rate, { style: "percent", maximumFractionDigits: 1 }), attempts: sum.attempts });
  const color = sum.rate === null ? "var(--muted-foreground)" : sum.failed === 0 ? "var(--success)" : sum.rate >= 0.9 ? "var(--warning)" : "var(--danger)";
  const x = (i: number) => PAD + (i * (W - 2 * PAD)) / Math.max(points.length - 1, 1);
  const y = (rate: number) => PAD + (1 - rate) * (H - 2 * PAD);

  // One path, lifted at each hour without attempts so the line breaks there instead of bridging it.
  let d = "";
  let pen = false;
  const lone: { cx: number; cy: number }[] = [];
  points.forEach((p, i) => {
    if (p.rate === null) {
      pen = false;
      return;
    }
    d += `${pen ? "L" : "M"}${x(i).toFixed(1)} ${y(p.rate).toFixed(1)}`;
    if (!pen && (points[i + 1]?.rate ?? null) === null) lone.push({ cx: x(i), cy: y(p.rate) });
    pen = true;
  });

  return (
    <span className="inline-flex items-center gap-2 align-middle" data-testid="stats-sparkline">
      <svg role="img" aria-label={label} width={W} height={H} viewBox={`0 0 ${W} ${H}`} className="shrink-0 overflow-visible">
        <title>{label}</title>
        {sum.rate === null ? (
          <line x1={PAD} x2={W - PAD} y1={H / 2} y2={H / 2} stroke={color} strokeDasharray="3 3" />
        ) : (
          <>
            <path d={d} fill="none" stroke={color} strokeWidth={1.5} strokeLinejoin="round" strokeLinecap="round" />
            {lone.map((c) => (
              <circle key={c.cx} cx={c.cx} cy={c.cy} r={2} fill={color} />
            ))}
          </>
        )}
      </svg>
      <span aria-hidden className="text-xs tabular-nums text-muted-foreground">
        {sum.rate === null ? "—" : format.number(sum.rate, { style: "percent", maximumFractionDigits: 0 })}
      </span>
    </span>
  );
}

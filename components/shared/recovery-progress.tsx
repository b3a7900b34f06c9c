"use client";

import { useFormatter, useTranslations } from "next-intl";
import { Badge } from "../ui/badge";
import type { Recovery, RecoveryCounts } from "./types";

const SEGMENTS = [
  { key: "succeeded", className: "bg-success" },
  { key: "failed", className: "bg-danger" },
  { key: "skipped", className: "bg-muted-foreground/50" },
  { key: "queued", className: "bg-primary/60" },
] as const;

const STATE_TONES = { planned: "neutral", canary: "warning", running: "primary", paused: "warning", completed: "success", canceled: "neutral" } as const;

export function RecoveryStateBadge({ state }: { state: Recovery["state"] }) {
  const t = useTranslations("logs.recovery");
  return <Badge tone={STATE_TONES[state]}>{t(`states.${state}`)}</Badge>;
}

/** A run's progress as a stacked bar over what it expects, each count also written as a number. */
export function RecoveryProgress({
  recovery,
  compact = false,
}: {
  recovery: Pick<Recovery, "state" | "stop_reason" | "counts" | "selection">;
  compact?: boolean;
}) {
  const t = useTranslations("logs.recovery");
  const format = useFormatter();
  const counts: RecoveryCounts = recovery.counts;
  const total = Math.max(counts.expected, counts.succeeded + counts.failed + counts.skipped + counts.queued, 1);
  const done = counts.succeeded + counts.failed + counts.skipped;
  return (
    <div className="space-y-2" data-testid="recovery-progress">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <RecoveryStateBadge state={recovery.state} />
        <span className="text-muted-foreground">{t("doneOf", { done, expected: counts.expected })}</span>
        {recovery.selection.selecting ? (
          <span role="status" data-testid="recovery-selecting" className="text-muted-foreground">
            {t("selecting")}
          </span>
        ) : null}
      </div>
      {recovery.selection.capped && recovery.selection.item_limit !== null ? (
        <p data-testid="recovery-capped" className="text-xs text-warning">
          {t("capped", { limit: recovery.selection.item_limit })}
        </p>
      ) : null}
      <div
        role="progressbar"
        aria-label={t("progress")}
        aria-valuemin={0}
        aria-valuemax={counts.expected}
        aria-valuenow={done}
        className="flex h-2.5 w-full overflow-hidden rounded-full bg-muted"
      >
        {SEGMENTS.map(({ key, className }) =>
          counts[key] > 0 ? <div key={key} className={className} style={{ width: `${(counts[key] / total) * 100}%` }} title={`${t(`counts.${key}`)}: ${format.number(counts[key])}`} /> : null,
        )}
      </div>
      {compact ? null : (
        <dl className="flex flex-wrap gap-x-5 gap-y-1 text-xs">
          {(["expected", ...SEGMENTS.map((s) => s.key)] as const).map((key) => (
            <div key={key} className="flex gap-1">
              <dt className="text-muted-foreground">{t(`counts.${key}`)}</dt>
              <dd data-testid={`count-${key}`} className="font-medium tabular-nums">
                {format.number(counts[key])}
              </dd>
            </div>
          ))}
        </dl>
      )}
      {recovery.stop_reason ? (
        <p role="status" className="text-sm text-danger">
          {t(`stopReasons.${recovery.stop_reason}`)}
        </p>
      ) : null}
    </div>
  );
}

"use client";

import { useFormatter, useNow, useTimeZone } from "next-intl";
import { Tooltip } from "../ui/tooltip";

/**
 * Every date in the UI goes through here: relative ("3 minutes ago") in the viewer's language,
 * the exact time in the viewer's time zone on hover or focus.
 */
export function RelativeTime({ value, never }: { value: string | null; never?: string }) {
  const format = useFormatter();
  const now = useNow({ updateInterval: 30_000 });
  const timeZone = useTimeZone();
  if (!value) return <span className="text-muted-foreground">{never ?? "—"}</span>;
  const date = new Date(value);
  const exact = `${format.dateTime(date, { dateStyle: "medium", timeStyle: "medium" })} (${timeZone})`;
  return (
    <Tooltip content={exact}>
      <time dateTime={date.toISOString()} tabIndex={0} suppressHydrationWarning className="cursor-help whitespace-nowrap underline decoration-dotted decoration-muted-foreground/50 underline-offset-4">
        {format.relativeTime(date, now)}
      </time>
    </Tooltip>
  );
}

"use client";

import { useTranslations } from "next-intl";
import { CopyButton } from "../ui/copy-button";

/**
 * Code or JSON to copy: shown as text (never markup), scrolling sideways inside its box rather
 * than widening the page (the portal is often framed narrow), with a copy button in its title bar.
 */
export function CodeBlock({ code, title, copyLabel, testId }: { code: string; title: string; copyLabel: string; testId?: string }) {
  const common = useTranslations("common");
  return (
    <figure className="min-w-0 overflow-hidden rounded-md border border-border bg-muted">
      <figcaption className="flex items-center justify-between gap-2 border-b border-border py-1 pr-1 pl-3">
        <span className="min-w-0 truncate font-mono text-xs text-muted-foreground">{title}</span>
        <CopyButton value={code} label={copyLabel} copiedLabel={common("copied")} failedLabel={common("copyFailed")} />
      </figcaption>
      <pre data-testid={testId} aria-label={title} tabIndex={0} className="max-h-[32rem] overflow-auto p-3 font-mono text-xs leading-relaxed focus-visible:outline-2 focus-visible:outline-ring">
        <code>{code}</code>
      </pre>
    </figure>
  );
}

"use client";

import { TriangleAlert } from "lucide-react";
import { useTranslations } from "next-intl";
import { Button } from "../ui/button";
import { CopyButton } from "../ui/copy-button";

/** A secret in a box, selectable at a click, with its copy button. */
export function SecretValue({ value, testId, copyLabel }: { value: string; testId: string; copyLabel: string }) {
  const common = useTranslations("common");
  return (
    <div className="flex items-center gap-1 rounded-md border border-border bg-muted p-2">
      <code data-testid={testId} className="min-w-0 flex-1 font-mono text-xs break-all select-all">
        {value}
      </code>
      <CopyButton value={value} label={copyLabel} copiedLabel={common("copied")} failedLabel={common("copyFailed")} />
    </div>
  );
}

/** What a create dialog shows once, when what it made has a secret that is never shown again. */
export function ShownOnce({ notice, onDone, ...secret }: { notice: string; value: string; testId: string; copyLabel: string; onDone: () => void }) {
  const common = useTranslations("common");
  return (
    <>
      <div className="flex items-start gap-2 rounded-md bg-warning/15 p-3 text-sm">
        <TriangleAlert aria-hidden className="mt-0.5 h-4 w-4 shrink-0" />
        <p>{notice}</p>
      </div>
      <div className="mt-4">
        <SecretValue {...secret} />
      </div>
      <div className="mt-6 flex justify-end">
        <Button onClick={onDone}>{common("done")}</Button>
      </div>
    </>
  );
}

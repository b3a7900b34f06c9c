"use client";

import { useTranslations } from "next-intl";
import { useId, useRef, useState } from "react";
import { fillSecret } from "@/lib/receiving/sample-text";
import type { ReceivingSample } from "@/lib/receiving/schemas";
import { CodeBlock } from "../../shared/code-block";
import { cn } from "../../ui/cn";

/** One tab per language (arrow keys move between them), each sample with the secret (and a polling reader's URL) filled in or its stand-in. */
export function SampleTabs({
  samples,
  secret,
  pollUrl = null,
  testId = "sample-code",
}: {
  samples: ReceivingSample[];
  secret: string | null;
  pollUrl?: string | null;
  /** The code box's test id: the general guide shows a receiver's tabs and a poller's. */
  testId?: string;
}) {
  const t = useTranslations("receiving.code");
  const [selected, setSelected] = useState(0);
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);
  const id = useId();
  const sample = samples[selected];
  const move = (to: number) => {
    const next = (to + samples.length) % samples.length;
    setSelected(next);
    tabs.current[next]?.focus();
  };

  return (
    <div className="min-w-0">
      <div role="tablist" aria-label={t("languages")} className="mb-2 flex gap-1 overflow-x-auto border-b border-border">
        {samples.map((s, i) => (
          <button
            key={s.id}
            ref={(element) => {
              tabs.current[i] = element;
            }}
            type="button"
            role="tab"
            id={`${id}-tab-${s.id}`}
            aria-selected={i === selected}
            aria-controls={`${id}-panel`}
            tabIndex={i === selected ? 0 : -1}
            onClick={() => setSelected(i)}
            onKeyDown={(event) => {
              if (event.key === "ArrowRight") move(i + 1);
              else if (event.key === "ArrowLeft") move(i - 1);
              else if (event.key === "Home") move(0);
              else if (event.key === "End") move(samples.length - 1);
              else return;
              event.preventDefault();
            }}
            className={cn(
              "-mb-px border-b-2 px-3 py-2 text-sm font-medium whitespace-nowrap focus-visible:outline-2 focus-visible:outline-ring",
              i === selected ? "border-primary text-foreground" : "border-transparent text-muted-foreground hover:text-foreground",
            )}
          >
            {s.title}
          </button>
        ))}
      </div>
      {sample ? (
        <div role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-tab-${sample.id}`}>
          <CodeBlock code={fillSecret(sample.code, secret, pollUrl)} title={sample.file} copyLabel={t("copy")} testId={testId} />
        </div>
      ) : null}
    </div>
  );
}

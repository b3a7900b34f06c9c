"use client";

import { Funnel } from "lucide-react";
import { useTranslations } from "next-intl";
import type { MessageDetail } from "@/lib/messages/schemas";
import { EndpointName } from "../names";
import { Card } from "../../ui/card";

/**
 * The endpoints whose payload filter refused a message: they have no delivery of it, so without
 * this list "why didn't it arrive" would have no answer on the message's page.
 */
export function FilteredOut({ filtered, endpointHref }: { filtered: MessageDetail["filtered"]; endpointHref?: (id: string) => string }) {
  const t = useTranslations("messageLog.detail");
  if (filtered.length === 0) return null;
  return (
    <section aria-labelledby="filtered-out-title" className="mt-6" data-testid="filtered-out">
      <h2 id="filtered-out-title" className="mb-2 text-sm font-semibold">
        {t("filteredTitle")}
      </h2>
      <Card>
        <ul className="divide-y divide-border">
          {filtered.map((f) => (
            <li key={f.endpoint_id} className="flex items-start gap-3 p-4" data-testid="filtered-endpoint">
              <Funnel aria-hidden className="mt-0.5 h-4 w-4 shrink-0 text-muted-foreground" />
              <div className="min-w-0 text-sm">
                <EndpointName id={f.endpoint_id} endpoint={f.endpoint} href={endpointHref?.(f.endpoint_id)} inline />
                <p className="mt-1 text-muted-foreground">{t("filteredBody")}</p>
              </div>
            </li>
          ))}
        </ul>
      </Card>
    </section>
  );
}

"use client";

import { AlertTriangle, Ban, CircleSlash } from "lucide-react";
import { useTranslations } from "next-intl";
import { RelativeTime } from "./relative-time";
import { endpointHealth, type Endpoint } from "./resources";

/**
 * What is wrong with an endpoint, since when, and what happens next; nothing when it is healthy.
 * `action` is the caller's own next step (what happens now, its enable button), shown below the words.
 * The state's own sentence says why it stopped: `disabled_reason` is the API's English for it.
 */
export function EndpointHealthBanner({ endpoint, action }: { endpoint: Endpoint; action?: React.ReactNode }) {
  const t = useTranslations("endpointHealth");
  const health = endpointHealth(endpoint);
  if (health === "healthy") return null;
  const Icon = health === "disabled" ? CircleSlash : health === "auto_disabled" ? Ban : AlertTriangle;
  const tone = health === "disabled" ? "border-border bg-muted" : "border-danger/30 bg-danger/5";
  return (
    <div role="status" className={`flex items-start gap-3 rounded-md border p-4 text-sm ${tone}`}>
      <Icon aria-hidden className="mt-0.5 h-4 w-4 shrink-0" />
      <div className="flex-1 space-y-1">
        <p className="font-medium">{t(`banner.${health}`)}</p>
        {endpoint.failing_since ? (
          <p className="text-muted-foreground">
            {t("failingSince")} <RelativeTime value={endpoint.failing_since} /> · {t("consecutiveFailures", { count: endpoint.consecutive_failures })}
          </p>
        ) : null}
        {health === "circuit_open" ? (
          <p className="text-muted-foreground">
            {t("circuitOpenUntil")} <RelativeTime value={endpoint.circuit_open_until} />
          </p>
        ) : null}
        {action ? <div className="pt-2">{action}</div> : null}
      </div>
    </div>
  );
}

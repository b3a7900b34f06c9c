"use client";

import { useTranslations } from "next-intl";
import { Badge } from "../ui/badge";
import { endpointHealth, type Endpoint, type EndpointHealth } from "./resources";

const TONE: Record<EndpointHealth, "success" | "warning" | "danger" | "neutral"> = {
  healthy: "success",
  failing: "warning",
  circuit_open: "danger",
  disabled: "neutral",
  auto_disabled: "danger",
};

/** One word for an endpoint's health, in the same colours everywhere (dashboard and portal). */
export function EndpointStateBadge({ endpoint }: { endpoint: Endpoint }) {
  const t = useTranslations("endpointHealth");
  const health = endpointHealth(endpoint);
  return (
    <Badge tone={TONE[health]} data-testid="endpoint-state">
      {t(`states.${health}`)}
    </Badge>
  );
}

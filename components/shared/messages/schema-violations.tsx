"use client";

import { TriangleAlert } from "lucide-react";
import { useTranslations } from "next-intl";
import type { MessageDetail } from "@/lib/messages/schemas";
import { PointerList } from "../event-types/schema-faults";

/**
 * Where a message accepted under `warn` broke its event type's schema: each JSON pointer into the
 * payload with the fault, as text (a payload is the sender's, whatever it holds).
 */
export function SchemaViolations({ message }: { message: Pick<MessageDetail, "schema_version" | "schema_violations"> }) {
  const t = useTranslations("messageLog.detail.schema");
  const violations = message.schema_violations ?? [];
  if (violations.length === 0) return null;
  return (
    <div role="note" className="mb-4 flex items-start gap-3 rounded-md border border-warning/40 bg-warning/10 p-3 text-sm" data-testid="schema-violations">
      <TriangleAlert aria-hidden className="mt-0.5 h-4 w-4 shrink-0 text-warning" />
      <div className="min-w-0">
        <p className="font-medium">{message.schema_version === null ? t("titleUnversioned") : t("title", { version: message.schema_version })}</p>
        <p className="mt-0.5 text-muted-foreground">{t("body")}</p>
        <PointerList faults={violations} whole={t("whole")} />
      </div>
    </div>
  );
}

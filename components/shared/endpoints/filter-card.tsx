"use client";

import { FunnelX, Funnel } from "lucide-react";
import { useTranslations } from "next-intl";
import { toast } from "sonner";
import { CodeBlock } from "../code-block";
import { useErrorText } from "../error-message";
import type { Endpoint } from "../resources";
import { useUpdateEndpoint } from "../queries/endpoints";
import { ConfirmDialog } from "../../ui/alert-dialog";
import { Button } from "../../ui/button";
import { Card } from "../../ui/card";
import { EmptyNote } from "../../ui/empty-note";
import { FilterEditor } from "./filter-editor";
import { filterText } from "./filter-form";
import { FilterWords } from "./filter-words";

/**
 * The endpoint's payload filter, in words and as JSON, with its editor; in the dashboard and the
 * portal alike. `reason` says why the viewer may not change it (null: they may) — they may still
 * open the editor to try filters on the endpoint's last messages, which changes nothing.
 */
export function FilterCard({ endpoint, reason }: { endpoint: Endpoint; reason: string | null }) {
  const t = useTranslations("endpoints.filter");
  const common = useTranslations("common");
  const errorText = useErrorText();
  const remove = useUpdateEndpoint(endpoint.id);
  const filter = endpoint.filter;

  return (
    <Card className="p-4" data-testid="filter-card">
      <div className="mb-3 flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0 flex-1 basis-72">
          <h2 className="text-sm font-semibold">{t("title")}</h2>
          <p className="mt-1 text-xs text-muted-foreground">{t("description")}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <FilterEditor endpoint={endpoint} reason={reason} />
          {filter ? (
            <ConfirmDialog
              trigger={
                <Button variant="secondary" size="sm" disabled={reason !== null || remove.isPending} title={reason ?? undefined}>
                  <FunnelX aria-hidden className="h-3.5 w-3.5" />
                  {t("remove")}
                </Button>
              }
              title={t("removeTitle")}
              description={t("removeDescription")}
              confirmLabel={t("remove")}
              cancelLabel={common("cancel")}
              onConfirm={() =>
                remove.mutateAsync({ filter: null }).then(
                  () => toast.success(t("removed")),
                  (error: unknown) => toast.error(errorText(error)),
                )
              }
            />
          ) : null}
        </div>
      </div>
      {filter ? (
        <div className="grid gap-3 lg:grid-cols-2">
          <div className="min-w-0">
            <p className="mb-1 text-xs font-medium text-muted-foreground">{t("inWords")}</p>
            <p className="text-sm leading-relaxed break-words" data-testid="filter-words">
              <FilterWords filter={filter} />
            </p>
          </div>
          <CodeBlock code={filterText(filter)} title={t("asJson")} copyLabel={t("copy")} testId="filter-json" />
        </div>
      ) : (
        <EmptyNote icon={Funnel} title={t("noneTitle")} body={t("noneBody")} testId="filter-none" />
      )}
      {reason ? <p className="mt-3 text-xs text-muted-foreground">{reason}</p> : null}
    </Card>
  );
}

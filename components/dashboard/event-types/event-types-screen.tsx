"use client";

import { BookOpen, ChevronRight } from "lucide-react";
import { useTranslations } from "next-intl";
import { ErrorMessage } from "../../shared/error-message";
import { JsonBlock } from "../../shared/json-block";
import { RelativeTime } from "../../shared/relative-time";
import { Badge } from "../../ui/badge";
import { Card } from "../../ui/card";
import { EmptyState } from "../../ui/empty-state";
import { TableSkeleton } from "../../ui/skeleton";
import { useOperator } from "../operator-context";
import { PageHeader } from "../../shared/page-header";
import { CreateEventTypeDialog } from "./create-event-type-dialog";
import { useEventTypes, type EventType } from "../../shared/queries/event-types";

function EventTypeRow({ eventType }: { eventType: EventType }) {
  const t = useTranslations("eventTypes");
  const hasSchema = eventType.schema !== null;
  const hasExample = eventType.example !== null && eventType.example !== undefined;
  return (
    <details className="group px-4 py-3 [&_summary::-webkit-details-marker]:hidden">
      <summary className="flex cursor-pointer list-none items-center gap-3 rounded focus-visible:outline-2 focus-visible:outline-ring">
        <ChevronRight aria-hidden className="h-4 w-4 shrink-0 text-muted-foreground transition group-open:rotate-90" />
        <code className="font-mono text-sm font-medium">{eventType.name}</code>
        <span className="min-w-0 flex-1 truncate text-sm text-muted-foreground">{eventType.description || t("noDescription")}</span>
        <span className="hidden gap-1.5 sm:flex">
          {hasSchema ? <Badge tone="primary">{t("schemaBadge")}</Badge> : null}
          {hasExample ? <Badge tone="success">{t("exampleBadge")}</Badge> : null}
        </span>
        <span className="hidden text-xs text-muted-foreground md:inline">
          <RelativeTime value={eventType.created_at} />
        </span>
      </summary>
      <div className="mt-3 grid gap-4 pl-7 lg:grid-cols-2">
        <div>
          <h3 className="mb-1.5 text-xs font-medium text-muted-foreground">{t("schema")}</h3>
          {hasSchema ? <JsonBlock value={eventType.schema} label={t("schema")} /> : <p className="text-sm text-muted-foreground">{t("noSchema")}</p>}
        </div>
        <div>
          <h3 className="mb-1.5 text-xs font-medium text-muted-foreground">{t("example")}</h3>
          {hasExample ? <JsonBlock value={eventType.example} label={t("example")} /> : <p className="text-sm text-muted-foreground">{t("noExample")}</p>}
        </div>
      </div>
    </details>
  );
}

export function EventTypesScreen() {
  const t = useTranslations("eventTypes");
  const common = useTranslations("common");
  const { role } = useOperator();
  const eventTypes = useEventTypes();
  const canWrite = role === "admin";
  return (
    <>
      <PageHeader title={t("title")} description={t("description")} actions={canWrite ? <CreateEventTypeDialog /> : null} />
      <Card>
        {eventTypes.isPending ? (
          <TableSkeleton label={common("loading")} />
        ) : eventTypes.isError ? (
          <ErrorMessage error={eventTypes.error} retry={() => eventTypes.refetch()} />
        ) : eventTypes.data.data.length === 0 ? (
          <EmptyState icon={BookOpen} title={t("emptyTitle")} description={t("emptyDescription")} action={canWrite ? <CreateEventTypeDialog /> : null} />
        ) : (
          <div className="divide-y divide-border">
            {eventTypes.data.data.map((eventType) => (
              <EventTypeRow key={eventType.id} eventType={eventType} />
            ))}
          </div>
        )}
      </Card>
    </>
  );
}

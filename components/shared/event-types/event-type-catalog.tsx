"use client";

import { Check, ChevronRight } from "lucide-react";
import { useTranslations } from "next-intl";
import { Badge } from "../../ui/badge";
import { CodeBlock } from "../code-block";
import type { EventType } from "../queries/event-types";
import { SchemaFieldList } from "./schema-field-list";

/**
 * The event types, each opening to its description, its payload's fields (from its JSON Schema)
 * and its example to copy. `subscribed` marks the ones an endpoint gets (null event_types: all);
 * without it nothing is marked. `extra` adds to a row's summary (the dashboard's creation time).
 */
export function EventTypeCatalog({
  eventTypes,
  subscribed,
  extra,
}: {
  eventTypes: EventType[];
  subscribed?: string[] | null;
  extra?: (eventType: EventType) => React.ReactNode;
}) {
  const marking = subscribed !== undefined;
  const gets = (name: string) => subscribed === null || (subscribed ?? []).includes(name);
  return (
    <div className="divide-y divide-border" data-testid="event-catalog">
      {eventTypes.map((eventType) => (
        <EventTypeRow key={eventType.id} eventType={eventType} mark={marking ? gets(eventType.name) : null} extra={extra?.(eventType)} />
      ))}
    </div>
  );
}

function EventTypeRow({ eventType, mark, extra }: { eventType: EventType; mark: boolean | null; extra?: React.ReactNode }) {
  const t = useTranslations("eventCatalog");
  const types = useTranslations("eventTypes");
  const hasSchema = eventType.schema !== null;
  const hasExample = eventType.example !== null && eventType.example !== undefined;
  return (
    <details className="group px-4 py-3 [&_summary::-webkit-details-marker]:hidden" data-event-type={eventType.name} data-subscribed={mark === null ? undefined : String(mark)}>
      <summary className="flex cursor-pointer list-none flex-wrap items-center gap-x-3 gap-y-1 rounded focus-visible:outline-2 focus-visible:outline-ring">
        <ChevronRight aria-hidden className="h-4 w-4 shrink-0 text-muted-foreground transition group-open:rotate-90" />
        <code className="font-mono text-sm font-medium break-all">{eventType.name}</code>
        {mark === true ? (
          <Badge tone="success" className="gap-1">
            <Check aria-hidden className="h-3 w-3" />
            {t("subscribed")}
          </Badge>
        ) : mark === false ? (
          <Badge>{t("notSubscribed")}</Badge>
        ) : null}
        <span className="min-w-0 flex-1 basis-48 truncate text-sm text-muted-foreground group-open:invisible">{eventType.description || types("noDescription")}</span>
        <span className="hidden gap-1.5 sm:flex">
          {hasSchema ? <Badge tone="primary">{types("schemaBadge")}</Badge> : null}
          {hasExample ? <Badge tone="success">{types("exampleBadge")}</Badge> : null}
        </span>
        {extra}
      </summary>
      <div className="mt-3 space-y-4 pl-7">
        {eventType.description ? <p className="text-sm break-words whitespace-pre-line">{eventType.description}</p> : null}
        <div className="grid gap-4 lg:grid-cols-2">
          <section className="min-w-0">
            <h3 className="mb-1.5 text-xs font-medium text-muted-foreground">{t("fields")}</h3>
            {hasSchema ? (
              <>
                <SchemaFieldList schema={eventType.schema} label={t("fieldsOf", { name: eventType.name })} />
                <details className="mt-2 text-xs">
                  <summary className="cursor-pointer text-muted-foreground hover:text-foreground">{t("schemaSource")}</summary>
                  <div className="mt-2">
                    <CodeBlock code={JSON.stringify(eventType.schema, null, 2)} title={types("schema")} copyLabel={t("copySchema")} />
                  </div>
                </details>
              </>
            ) : (
              <p className="text-sm text-muted-foreground">{types("noSchema")}</p>
            )}
          </section>
          <section className="min-w-0">
            <h3 className="mb-1.5 text-xs font-medium text-muted-foreground">{types("example")}</h3>
            {hasExample ? (
              <CodeBlock code={JSON.stringify(eventType.example, null, 2)} title={t("exampleOf", { name: eventType.name })} copyLabel={t("copyExample")} testId="event-example" />
            ) : (
              <p className="text-sm text-muted-foreground">{types("noExample")}</p>
            )}
          </section>
        </div>
      </div>
    </details>
  );
}

"use client";

import { Check, ChevronRight } from "lucide-react";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { Badge } from "../../ui/badge";
import { CodeBlock } from "../code-block";
import type { EventType } from "../queries/event-types";
import { SchemaFieldList } from "./schema-field-list";
import { SchemaDownloads, SchemaVersions } from "./schema-versions";

/**
 * The event types, each opening to its description, its payload's fields (from its JSON Schema)
 * and its example to copy. `subscribed` marks the ones an endpoint gets (null event_types: all);
 * without it nothing is marked. `extra` adds to a row's summary (the dashboard's creation time),
 * `detail` under an opened row's description (the dashboard's enforcement and edit button). An opened
 * row lists the schema's versions, each to read and download.
 */
export function EventTypeCatalog({
  eventTypes,
  subscribed,
  extra,
  detail,
}: {
  eventTypes: EventType[];
  subscribed?: string[] | null;
  extra?: (eventType: EventType) => React.ReactNode;
  detail?: (eventType: EventType) => React.ReactNode;
}) {
  const marking = subscribed !== undefined;
  const gets = (name: string) => subscribed === null || (subscribed ?? []).includes(name);
  return (
    <div className="divide-y divide-border" data-testid="event-catalog">
      {eventTypes.map((eventType) => (
        <EventTypeRow key={eventType.id} eventType={eventType} mark={marking ? gets(eventType.name) : null} extra={extra?.(eventType)} detail={detail?.(eventType)} />
      ))}
    </div>
  );
}

function EventTypeRow({ eventType, mark, extra, detail }: { eventType: EventType; mark: boolean | null; extra?: React.ReactNode; detail?: React.ReactNode }) {
  const t = useTranslations("eventCatalog");
  const types = useTranslations("eventTypes");
  // The versions are read once the row is opened, not for every row listed.
  const [open, setOpen] = useState(false);
  const hasSchema = eventType.schema !== null;
  const hasExample = eventType.example !== null && eventType.example !== undefined;
  return (
    <details
      className="group px-4 py-3 [&_summary::-webkit-details-marker]:hidden"
      data-event-type={eventType.name}
      data-subscribed={mark === null ? undefined : String(mark)}
      onToggle={(event) => setOpen(event.currentTarget.open)}
    >
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
          {hasSchema ? <Badge tone="primary">{t("versions.badge", { version: eventType.schema_version })}</Badge> : null}
          {hasExample ? <Badge tone="success">{types("exampleBadge")}</Badge> : null}
        </span>
        {extra}
      </summary>
      <div className="mt-3 space-y-4 pl-7">
        {eventType.description ? <p className="text-sm break-words whitespace-pre-line">{eventType.description}</p> : null}
        {detail}
        <div className="grid gap-4 lg:grid-cols-2">
          <section className="min-w-0">
            <h3 className="mb-1.5 text-xs font-medium text-muted-foreground">{t("fields")}</h3>
            {hasSchema ? (
              <>
                <div className="mb-2 flex flex-wrap items-center gap-x-3 gap-y-2">
                  <span className="text-sm font-medium" data-testid="schema-version">
                    {t("versions.current", { version: eventType.schema_version })}
                  </span>
                  <SchemaDownloads name={eventType.name} version={eventType.schema_version} />
                </div>
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
            <h3 className="mb-1.5 flex flex-wrap items-center gap-2 text-xs font-medium text-muted-foreground">
              {types("example")}
              {/* The server refuses an example its schema refuses, so one beside a schema is valid. */}
              {hasExample && hasSchema ? (
                <Badge tone="success" className="gap-1" data-testid="example-valid">
                  <Check aria-hidden className="h-3 w-3" />
                  {t("exampleValid")}
                </Badge>
              ) : null}
            </h3>
            {hasExample ? (
              <CodeBlock code={JSON.stringify(eventType.example, null, 2)} title={t("exampleOf", { name: eventType.name })} copyLabel={t("copyExample")} testId="event-example" />
            ) : (
              <p className="text-sm text-muted-foreground">{types("noExample")}</p>
            )}
          </section>
        </div>
        {open && eventType.schema_version > 0 ? <SchemaVersions name={eventType.name} /> : null}
      </div>
    </details>
  );
}

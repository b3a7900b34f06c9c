"use client";

import { useTranslations } from "next-intl";
import { CodeBlock } from "../code-block";
import { DownloadButton } from "../download-button";
import { QueryRows } from "../query-rows";
import { schemaVersionPath, useSchemaVersions, type EventTypeSchemaVersion } from "../queries/event-types";
import { RelativeTime } from "../relative-time";
import { Badge } from "../../ui/badge";

/** The JSON Schema of a version, without the version's envelope: a file validators read as it is. */
const schemaOnly = (answer: unknown) => (answer as EventTypeSchemaVersion).schema;

/** A version's two downloads: the schema as JSON, and its payload as TypeScript declarations. */
export function SchemaDownloads({ name, version }: { name: string; version: number }) {
  const t = useTranslations("eventCatalog.versions");
  return (
    <span className="flex flex-wrap gap-2" data-testid="schema-downloads">
      <DownloadButton
        route="GET /event-types/{name}/schemas/{version}"
        path={schemaVersionPath(name, version)}
        filename={`${name}.v${version}.schema.json`}
        label={t("downloadJson")}
        part={schemaOnly}
      />
      <DownloadButton
        route="GET /event-types/{name}/schemas/{version}/typescript"
        path={schemaVersionPath(name, version, true)}
        filename={`${name}.v${version}.d.ts`}
        label={t("downloadTypes")}
      />
    </span>
  );
}

/**
 * Every kept version of an event type's schema, newest first, each opening to its JSON and its
 * downloads; the version that removed the schema says so.
 */
export function SchemaVersions({ name }: { name: string }) {
  const t = useTranslations("eventCatalog.versions");
  const versions = useSchemaVersions(name);
  return (
    <section className="min-w-0" data-testid="schema-versions">
      <h3 className="mb-1.5 text-xs font-medium text-muted-foreground">{t("title")}</h3>
      <QueryRows query={versions} isEmpty={(page) => page.data.length === 0} empty={<p className="text-sm text-muted-foreground">{t("none")}</p>} skeletonRows={1}>
        {(page) => (
          <ul className="divide-y divide-border rounded-md border border-border text-sm">
            {page.data.map((version) => (
              <li key={version.version} className="px-3 py-2" data-version={version.version}>
                <VersionRow name={name} version={version} />
              </li>
            ))}
          </ul>
        )}
      </QueryRows>
    </section>
  );
}

function VersionRow({ name, version }: { name: string; version: EventTypeSchemaVersion }) {
  const t = useTranslations("eventCatalog.versions");
  const head = (
    <>
      <span className="font-mono font-medium">{t("version", { version: version.version })}</span>
      <span className="text-xs text-muted-foreground">
        <RelativeTime value={version.created_at} />
      </span>
    </>
  );
  if (version.schema === null)
    return (
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        {head}
        <Badge>{t("removed")}</Badge>
      </div>
    );
  return (
    // A named group: the catalog row around it is a `group` too, and open.
    <details className="group/version">
      <summary className="flex cursor-pointer flex-wrap items-center gap-x-3 gap-y-1 rounded focus-visible:outline-2 focus-visible:outline-ring">
        {head}
        <span className="text-xs text-primary group-open/version:hidden">{t("view")}</span>
      </summary>
      <div className="mt-2 space-y-2">
        <CodeBlock code={JSON.stringify(version.schema, null, 2)} title={t("schemaOf", { name, version: version.version })} copyLabel={t("copy")} />
        <SchemaDownloads name={name} version={version.version} />
      </div>
    </details>
  );
}

"use client";

import { useTranslations } from "next-intl";
import { JsonBlock } from "../json-block";
import { useEventTypes } from "../queries/event-types";
import { ErrorMessage } from "../error-message";
import { Skeleton } from "../../ui/skeleton";

/**
 * Which events an endpoint gets, picked from the catalog (GET /event-types) with each type's
 * description and example payload. Nothing picked means every event. A type the endpoint already
 * has but the catalog no longer lists stays shown, so saving does not drop it silently.
 */
export function EventTypePicker({ value, onChange }: { value: string[]; onChange: (next: string[]) => void }) {
  const t = useTranslations("endpoints.edit");
  const catalog = useEventTypes();
  if (catalog.isPending) return <Skeleton className="h-24 w-full" />;
  if (catalog.isError) return <ErrorMessage error={catalog.error} retry={() => catalog.refetch()} />;
  const listed = catalog.data.data;
  const unlisted = value.filter((name) => !listed.some((type) => type.name === name));
  const toggle = (name: string, on: boolean) => onChange(on ? [...value, name] : value.filter((n) => n !== name));

  return (
    <fieldset className="space-y-2" aria-describedby="event-types-hint">
      <legend className="text-sm font-medium">{t("eventTypes")}</legend>
      <p id="event-types-hint" className="text-xs text-muted-foreground">
        {listed.length === 0 && unlisted.length === 0 ? t("catalogEmpty") : value.length === 0 ? t("allSelected") : t("someSelected", { count: value.length })}
      </p>
      {listed.length + unlisted.length > 0 ? (
      <ul className="max-h-64 space-y-1 overflow-auto rounded-md border border-border p-2">
        {[...listed.map((type) => ({ name: type.name, description: type.description, example: type.example })), ...unlisted.map((name) => ({ name, description: t("notInCatalog"), example: null }))].map(
          (type) => (
            <li key={type.name} className="rounded px-2 py-1.5 hover:bg-muted">
              <label className="flex items-start gap-2 text-sm">
                <input
                  type="checkbox"
                  className="mt-0.5 accent-[var(--primary)]"
                  checked={value.includes(type.name)}
                  onChange={(event) => toggle(type.name, event.target.checked)}
                />
                <span className="min-w-0">
                  <span className="font-mono text-xs break-all">{type.name}</span>
                  {type.description ? <span className="block text-xs text-muted-foreground">{type.description}</span> : null}
                </span>
              </label>
              {type.example !== null && type.example !== undefined ? (
                <details className="mt-1 ml-6">
                  <summary className="cursor-pointer text-xs font-medium text-primary">{t("example")}</summary>
                  <div className="mt-1">
                    <JsonBlock value={type.example} label={t("exampleOf", { name: type.name })} />
                  </div>
                </details>
              ) : null}
            </li>
          ),
        )}
      </ul>
      ) : null}
    </fieldset>
  );
}

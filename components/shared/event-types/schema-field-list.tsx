"use client";

import { useTranslations } from "next-intl";
import { schemaFields, type SchemaField } from "@/lib/event-types/schema-fields";
import { Badge } from "../../ui/badge";

/** A JSON Schema read as fields: name, type, required, description and allowed values, nested ones indented. */
export function SchemaFieldList({ schema, label }: { schema: unknown; label: string }) {
  const t = useTranslations("eventCatalog");
  const fields = schemaFields(schema);
  if (fields.length === 0) return <p className="text-sm text-muted-foreground">{t("noFields")}</p>;
  return (
    <ul aria-label={label} className="divide-y divide-border rounded-md border border-border text-sm" data-testid="schema-fields">
      {fields.map((field) => (
        <li key={field.key} className="py-2 pr-3" style={{ paddingLeft: `${0.75 + field.depth * 1.25}rem` }} data-field={field.key}>
          <FieldRow field={field} />
        </li>
      ))}
    </ul>
  );
}

function FieldRow({ field }: { field: SchemaField }) {
  const t = useTranslations("eventCatalog");
  const name =
    field.name ??
    (field.role.kind === "items" ? t("items") : field.role.kind === "option" ? t("option", { index: field.role.index }) : t("payload"));
  const type = typeText(field, t);
  return (
    <>
      <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
        <span className={field.name ? "font-mono font-medium break-all" : "text-muted-foreground italic"}>{name}</span>
        {type ? <code className="font-mono text-xs break-all text-primary">{type}</code> : null}
        {field.required ? <Badge tone="warning">{t("required")}</Badge> : null}
        {field.deprecated ? <Badge tone="danger">{t("deprecated")}</Badge> : null}
      </div>
      {field.description ? <p className="mt-0.5 break-words text-muted-foreground">{field.description}</p> : null}
      {field.values ? (
        <p className="mt-0.5 text-xs break-all text-muted-foreground">
          {field.values.length === 1 ? t("constant") : t("values")} <code className="font-mono">{field.values.join(" · ")}</code>
        </p>
      ) : null}
      {field.combinator ? <p className="mt-0.5 text-xs text-muted-foreground">{t(`combinator.${field.combinator}`)}</p> : null}
      {field.ref ? <p className="mt-0.5 text-xs break-all text-muted-foreground">{t("ref", { ref: field.ref })}</p> : null}
    </>
  );
}

/** `string`, `integer | null`, `array of object`, `string (date-time)`: JSON Schema's own words, which developers read as they are. */
function typeText(field: SchemaField, t: ReturnType<typeof useTranslations<"eventCatalog">>): string {
  const types = field.types.map((type) => (type === "array" && field.itemTypes.length ? t("arrayOf", { type: field.itemTypes.join(" | ") }) : type));
  const text = types.join(" | ");
  return field.format ? `${text} (${field.format})`.trim() : text;
}

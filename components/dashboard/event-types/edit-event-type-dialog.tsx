"use client";

import { Pencil } from "lucide-react";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { SchemaFaults, schemaFaults } from "../../shared/event-types/schema-faults";
import { FormDialog } from "../../shared/form-dialog";
import { useUpdateEventType, type EventType, type UpdateEventTypeInput } from "../../shared/queries/event-types";
import { Input, Select, Textarea } from "../../ui/input";
import { Field } from "../../ui/label";

const ENFORCEMENTS = ["off", "warn", "reject"] as const satisfies readonly EventType["enforcement"][];

type Draft = { description: string; schema: string; example: string; enforcement: EventType["enforcement"] };
type Invalid = "schema" | "example";

const SCHEMA_PLACEHOLDER = '{"type": "object", "required": ["invoice"], "properties": {"invoice": {"type": "string"}}}';
const EXAMPLE_PLACEHOLDER = '{"invoice": "in_1", "amount": 4200}';

const text = (value: unknown) => (value === null || value === undefined ? "" : JSON.stringify(value, null, 2));

/**
 * The JSON as typed: empty removes it (null) where there was one, and sends nothing where there was
 * none; what is typed must parse, and a schema must be an object. The server checks the rest.
 */
function parseDraft(draft: Draft, eventType: EventType): { input?: UpdateEventTypeInput; invalid?: Invalid } {
  const input: UpdateEventTypeInput = { description: draft.description.trim(), enforcement: draft.enforcement };
  for (const field of ["schema", "example"] as const) {
    const typed = draft[field].trim();
    if (!typed) {
      if (eventType[field] !== null && eventType[field] !== undefined) input[field] = null;
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(typed);
    } catch {
      return { invalid: field };
    }
    if (value === null || (field === "schema" && (typeof value !== "object" || Array.isArray(value)))) return { invalid: field };
    if (field === "schema") input.schema = value as Record<string, unknown>;
    else input.example = value;
  }
  return { input };
}

/** Edits an event type: its description, its JSON Schema and example (faults the server finds shown beside them, with their pointers) and how the schema is enforced. */
export function EditEventTypeDialog({ eventType }: { eventType: EventType }) {
  const t = useTranslations("eventTypes");
  const [draft, setDraft] = useState<Draft>({ description: "", schema: "", example: "", enforcement: "off" });
  const [invalid, setInvalid] = useState<Invalid | null>(null);
  const set = (field: keyof Draft) => (event: { target: { value: string } }) => setDraft({ ...draft, [field]: event.target.value });
  const save = useUpdateEventType(eventType.name);
  const faults = schemaFaults(save.error);
  const id = (field: string) => `event-type-${eventType.name}-${field}`;
  /** A JSON field: its own check's words below it, and the server's faults in it (by pointer) under that. */
  const jsonField = (field: Invalid, label: string, hint: string, invalidText: string, height: string, placeholder: string) => (
    <div className="space-y-1.5">
      <Field id={id(field)} label={label} hint={hint} error={invalid === field ? invalidText : undefined}>
        <Textarea
          id={id(field)}
          value={draft[field]}
          onChange={set(field)}
          spellCheck={false}
          className={`${height} font-mono text-xs`}
          aria-invalid={invalid === field || (faults?.[field].length ?? 0) > 0 ? true : undefined}
          placeholder={placeholder}
        />
      </Field>
      {faults ? <SchemaFaults faults={faults[field]} testId={`${field}-faults`} /> : null}
    </div>
  );
  return (
    <FormDialog
      title={t("edit.title", { name: eventType.name })}
      trigger={{ label: t("edit.open"), size: "sm" }}
      icon={Pencil}
      editing
      className="sm:max-w-3xl"
      mutation={save}
      toInput={() => {
        const parsed = parseDraft(draft, eventType);
        setInvalid(parsed.invalid ?? null);
        return parsed.input ?? null;
      }}
      ready
      successText={(saved) => t("edit.saved", { name: saved.name, version: saved.schema_version })}
      onOpened={() =>
        setDraft({ description: eventType.description, schema: text(eventType.schema), example: text(eventType.example), enforcement: eventType.enforcement })
      }
      onClosed={() => setInvalid(null)}
    >
      <Field id={id("description")} label={t("descriptionLabel")}>
        <Input id={id("description")} value={draft.description} onChange={set("description")} maxLength={2000} />
      </Field>
      {jsonField("schema", t("schema"), t("edit.schemaHint", { version: eventType.schema_version }), t("invalidSchema"), "min-h-56", SCHEMA_PLACEHOLDER)}
      {jsonField("example", t("example"), t("edit.exampleHint"), t("invalidExample"), "min-h-28", EXAMPLE_PLACEHOLDER)}
      <Field id={id("enforcement")} label={t("enforcement.label")} hint={t(`enforcement.describe.${draft.enforcement}`)}>
        <Select id={id("enforcement")} value={draft.enforcement} onChange={set("enforcement")}>
          {ENFORCEMENTS.map((level) => (
            <option key={level} value={level}>
              {t(`enforcement.levels.${level}`)}
            </option>
          ))}
        </Select>
      </Field>
    </FormDialog>
  );
}

"use client";

import { Plus } from "lucide-react";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { FormDialog } from "../../shared/form-dialog";
import { Input, Textarea } from "../../ui/input";
import { Field } from "../../ui/label";
import { useCreateEventType, type CreateEventTypeInput } from "../../shared/queries/event-types";

type Draft = { name: string; description: string; schema: string; example: string };
const EMPTY: Draft = { name: "", description: "", schema: "", example: "" };

/** The JSON fields are optional; what is typed must parse (the schema must be an object). */
function parseDraft(draft: Draft): { input?: CreateEventTypeInput; invalid?: "schema" | "example" } {
  const input: CreateEventTypeInput = { name: draft.name.trim() };
  if (draft.description.trim()) input.description = draft.description.trim();
  for (const field of ["schema", "example"] as const) {
    const text = draft[field].trim();
    if (!text) continue;
    try {
      const value: unknown = JSON.parse(text);
      if (field === "schema" && (typeof value !== "object" || value === null || Array.isArray(value))) return { invalid: field };
      if (value === null) return { invalid: field };
      if (field === "schema") input.schema = value as Record<string, unknown>;
      else input.example = value;
    } catch {
      return { invalid: field };
    }
  }
  return { input };
}

export function CreateEventTypeDialog() {
  const t = useTranslations("eventTypes");
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [invalid, setInvalid] = useState<"schema" | "example" | null>(null);
  const set = (field: keyof Draft) => (event: { target: { value: string } }) => setDraft({ ...draft, [field]: event.target.value });
  const create = useCreateEventType();
  return (
    <FormDialog
      title={t("create")}
      icon={Plus}
      className="max-w-xl"
      mutation={create}
      toInput={() => {
        const parsed = parseDraft(draft);
        setInvalid(parsed.invalid ?? null);
        return parsed.input ?? null;
      }}
      ready={draft.name.trim() !== ""}
      successText={(created) => t("created", { name: created.name })}
      onClosed={() => {
        setDraft(EMPTY);
        setInvalid(null);
      }}
    >
      <Field id="event-type-name" label={t("name")} hint={t("nameHint")}>
        <Input id="event-type-name" value={draft.name} onChange={set("name")} required maxLength={256} placeholder="invoice.paid" className="font-mono" />
      </Field>
      <Field id="event-type-description" label={t("descriptionLabel")}>
        <Input id="event-type-description" value={draft.description} onChange={set("description")} maxLength={2000} />
      </Field>
      <Field id="event-type-schema" label={t("schema")} error={invalid === "schema" ? t("invalidSchema") : undefined}>
        <Textarea id="event-type-schema" value={draft.schema} onChange={set("schema")} aria-invalid={invalid === "schema"} placeholder='{"type": "object"}' />
      </Field>
      <Field id="event-type-example" label={t("example")} error={invalid === "example" ? t("invalidExample") : undefined}>
        <Textarea id="event-type-example" value={draft.example} onChange={set("example")} aria-invalid={invalid === "example"} placeholder='{"invoice": "in_1", "amount": 4200}' />
      </Field>
    </FormDialog>
  );
}

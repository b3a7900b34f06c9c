"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { Button } from "../../ui/button";
import { cn } from "../../ui/cn";
import { Input, Select } from "../../ui/input";
import { Field } from "../../ui/label";
import { isoToLocalInput as toLocalInput, localInputToIso as fromLocalInput } from "../local-datetime";
import { ConsumerPicker, EndpointPicker } from "../pickers";
import type { MessageFilter } from "../queries/messages";

type Filters = Partial<Record<MessageFilter, string>>;

export type EndpointOption = { id: string; label: string };

/**
 * The filter form: applied on submit, so typing does not fire a query per key. `fields` are the
 * filters this audience has (a customer's portal has no consumer to choose). The consumer and the
 * endpoint are found by name, uid or URL and held as their ids; with `endpoints`, the endpoint is
 * chosen from that list instead (the portal's few, by URL).
 */
export function MessageFilters({
  fields,
  values,
  onApply,
  endpoints,
}: {
  fields: readonly MessageFilter[];
  values: Filters;
  onApply: (next: Filters) => void;
  endpoints?: EndpointOption[];
}) {
  const t = useTranslations("messageLog.filters");
  const [draft, setDraft] = useState<Filters>({ ...values, since: toLocalInput(values.since ?? ""), until: toLocalInput(values.until ?? "") });
  const [jsonError, setJsonError] = useState<string | undefined>();
  const shown = (key: MessageFilter) => fields.includes(key);
  const bind = (key: MessageFilter) => ({ id: `filter-${key}`, value: draft[key] ?? "", onChange: (e: { target: { value: string } }) => setDraft({ ...draft, [key]: e.target.value }) });
  const text = (key: "event_type", label: string, placeholder: string) =>
    shown(key) ? (
      <Field id={`filter-${key}`} label={label}>
        <Input {...bind(key)} placeholder={placeholder} />
      </Field>
    ) : null;
  const time = (key: "since" | "until") =>
    shown(key) ? (
      <Field id={`filter-${key}`} label={t(key)}>
        <Input type="datetime-local" {...bind(key)} />
      </Field>
    ) : null;
  return (
    <form
      role="search"
      aria-label={t("label")}
      className="grid gap-3 p-4 sm:grid-cols-2 lg:grid-cols-4"
      onSubmit={(event) => {
        event.preventDefault();
        const search = (draft.payload_contains ?? "").trim();
        if (search) {
          try {
            const parsed: unknown = JSON.parse(search);
            if (parsed === null || typeof parsed !== "object") throw new Error("scalar");
          } catch {
            setJsonError(t("payloadInvalid"));
            return;
          }
        }
        setJsonError(undefined);
        const next = Object.fromEntries(fields.map((key) => [key, (draft[key] ?? "").trim()])) as Filters;
        onApply({ ...next, since: fromLocalInput(next.since ?? ""), until: fromLocalInput(next.until ?? "") });
      }}
    >
      {shown("consumer") ? (
        <Field id="filter-consumer" label={t("consumer")}>
          <ConsumerPicker id="filter-consumer" value={draft.consumer ?? ""} allowAny onChange={(consumer) => setDraft({ ...draft, consumer, endpoint_id: consumer && consumer !== draft.consumer ? "" : draft.endpoint_id })} />
        </Field>
      ) : null}
      {endpoints && shown("endpoint_id") ? (
        <Field id="filter-endpoint_id" label={t("endpointUrl")}>
          <Select {...bind("endpoint_id")}>
            <option value="">{t("anyEndpoint")}</option>
            {/* An id from a bookmarked link that is no longer listed still shows as chosen. */}
            {draft.endpoint_id && !endpoints.some((e) => e.id === draft.endpoint_id) ? <option value={draft.endpoint_id}>{draft.endpoint_id}</option> : null}
            {endpoints.map((e) => (
              <option key={e.id} value={e.id}>
                {e.label}
              </option>
            ))}
          </Select>
        </Field>
      ) : shown("endpoint_id") ? (
        <Field id="filter-endpoint_id" label={t("endpointUrl")}>
          <EndpointPicker id="filter-endpoint_id" value={draft.endpoint_id ?? ""} consumer={draft.consumer || undefined} allowAny onChange={(endpoint_id) => setDraft({ ...draft, endpoint_id })} />
        </Field>
      ) : null}
      {text("event_type", t("eventType"), "invoice.paid")}
      {shown("status") ? (
        <Field id="filter-status" label={t("status")}>
          <Select {...bind("status")}>
            <option value="">{t("anyStatus")}</option>
            {(["pending", "succeeded", "failed", "canceled"] as const).map((s) => (
              <option key={s} value={s}>
                {t(`statuses.${s}`)}
              </option>
            ))}
          </Select>
        </Field>
      ) : null}
      {time("since")}
      {time("until")}
      {shown("payload_contains") ? (
        <div className="sm:col-span-2">
          <Field id="filter-payload_contains" label={t("payload")} hint={t("payloadHint", { example: '{"invoice": {"status": "paid"}}' })} error={jsonError}>
            <Input {...bind("payload_contains")} className="font-mono" placeholder='{"invoice": {"status": "paid"}}' aria-invalid={jsonError ? true : undefined} aria-describedby={jsonError ? "filter-payload_contains-error" : "filter-payload_contains-hint"} />
          </Field>
        </div>
      ) : null}
      {shown("schema_invalid") ? (
        <Field id="filter-schema_invalid" label={t("schema")}>
          <Select {...bind("schema_invalid")}>
            <option value="">{t("schemaAny")}</option>
            <option value="true">{t("schemaBroken")}</option>
          </Select>
        </Field>
      ) : null}
      {/* Beside the schema choice where it is offered, so the grid has no hole; else a row of its own. */}
      <div className={cn("flex items-end gap-2", shown("schema_invalid") ? "lg:col-span-3" : "sm:col-span-2 lg:col-span-4")}>
        <Button type="submit">{t("apply")}</Button>
        <Button
          variant="secondary"
          onClick={() => {
            const cleared = Object.fromEntries(fields.map((k) => [k, ""])) as Filters;
            setDraft(cleared);
            setJsonError(undefined);
            onApply(cleared);
          }}
        >
          {t("clear")}
        </Button>
      </div>
    </form>
  );
}

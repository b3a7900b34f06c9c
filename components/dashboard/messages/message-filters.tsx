"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { Button } from "../../ui/button";
import { Input } from "../../ui/input";
import { Field } from "../../ui/label";
import { isoToLocalInput as toLocalInput, localInputToIso as fromLocalInput } from "../../shared/local-datetime";
import { MESSAGE_FILTERS } from "../../shared/queries/messages";

type Filters = Record<(typeof MESSAGE_FILTERS)[number], string>;

const SELECT = "h-9 w-full rounded-md border border-border bg-surface px-2 text-sm focus-visible:outline-2 focus-visible:outline-ring";

/** The filter form: applied on submit, so typing does not fire a query per key. */
export function MessageFilters({ values, onApply }: { values: Filters; onApply: (next: Filters) => void }) {
  const t = useTranslations("messageLog.filters");
  const [draft, setDraft] = useState<Filters>({ ...values, since: toLocalInput(values.since), until: toLocalInput(values.until) });
  const [jsonError, setJsonError] = useState<string | undefined>();
  const bind = (key: keyof Filters) => ({ id: `filter-${key}`, value: draft[key], onChange: (e: { target: { value: string } }) => setDraft({ ...draft, [key]: e.target.value }) });
  return (
    <form
      role="search"
      aria-label={t("label")}
      className="grid gap-3 p-4 sm:grid-cols-2 lg:grid-cols-4"
      onSubmit={(event) => {
        event.preventDefault();
        const search = draft.payload_contains.trim();
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
        onApply({ ...draft, consumer: draft.consumer.trim(), endpoint_id: draft.endpoint_id.trim(), event_type: draft.event_type.trim(), payload_contains: search, since: fromLocalInput(draft.since), until: fromLocalInput(draft.until) });
      }}
    >
      <Field id="filter-consumer" label={t("consumer")}>
        <Input {...bind("consumer")} placeholder={t("consumerPlaceholder")} />
      </Field>
      <Field id="filter-endpoint_id" label={t("endpoint")}>
        <Input {...bind("endpoint_id")} placeholder="ep_…" />
      </Field>
      <Field id="filter-event_type" label={t("eventType")}>
        <Input {...bind("event_type")} placeholder="invoice.paid" />
      </Field>
      <Field id="filter-status" label={t("status")}>
        <select {...bind("status")} className={SELECT}>
          <option value="">{t("anyStatus")}</option>
          {(["pending", "succeeded", "failed", "canceled"] as const).map((s) => (
            <option key={s} value={s}>
              {t(`statuses.${s}`)}
            </option>
          ))}
        </select>
      </Field>
      <Field id="filter-since" label={t("since")}>
        <Input type="datetime-local" {...bind("since")} />
      </Field>
      <Field id="filter-until" label={t("until")}>
        <Input type="datetime-local" {...bind("until")} />
      </Field>
      <div className="sm:col-span-2">
        <Field id="filter-payload_contains" label={t("payload")} hint={t("payloadHint")} error={jsonError}>
          <Input {...bind("payload_contains")} className="font-mono" placeholder='{"invoice": {"status": "paid"}}' aria-invalid={jsonError ? true : undefined} aria-describedby={jsonError ? "filter-payload_contains-error" : "filter-payload_contains-hint"} />
        </Field>
      </div>
      <div className="flex items-end gap-2 sm:col-span-2 lg:col-span-4">
        <Button type="submit">{t("apply")}</Button>
        <Button
          variant="secondary"
          onClick={() => {
            const cleared = Object.fromEntries(MESSAGE_FILTERS.map((k) => [k, ""])) as Filters;
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

"use client";

import { Plus, X } from "lucide-react";
import { useTranslations } from "next-intl";
import { useId } from "react";
import { useEventTypes } from "../queries/event-types";
import { Button } from "../../ui/button";
import { Input, Select } from "../../ui/input";
import { emptyRow, FORM_OPERATORS, takesList, takesNoValue, type FilterForm, type FilterRow, type RowProblem } from "./filter-form";

/** How deep into an example payload field suggestions go, and how many there are at most. */
const SUGGESTED_DEPTH = 4;
const SUGGESTED_PATHS = 100;

/** The dotted paths of an example payload's fields, for the field box's suggestions. */
function pathsOf(value: unknown, prefix: string, depth: number, into: Set<string>) {
  if (typeof value !== "object" || value === null || Array.isArray(value) || depth > SUGGESTED_DEPTH) return;
  for (const [key, item] of Object.entries(value)) {
    if (into.size >= SUGGESTED_PATHS) return;
    const path = prefix ? `${prefix}.${key}` : key;
    into.add(path);
    pathsOf(item, path, depth + 1, into);
  }
}

/**
 * The form view of the filter editor: rows of field, operator and value, joined by "all" or
 * "any". Field suggestions come from the example payloads of the event types the endpoint takes.
 */
export function FilterRows({
  form,
  problems,
  eventTypes,
  onChange,
}: {
  form: FilterForm;
  problems: (RowProblem | null)[];
  /** The endpoint's event types (null: all), whose examples suggest fields. */
  eventTypes: string[] | null;
  onChange: (form: FilterForm) => void;
}) {
  const t = useTranslations("endpoints.filter.form");
  const id = useId();
  const catalog = useEventTypes();
  const suggestions = new Set<string>(["event_type"]);
  for (const type of catalog.data?.data ?? []) if (!eventTypes || eventTypes.includes(type.name)) pathsOf(type.example, "", 1, suggestions);

  const setRow = (index: number, change: Partial<FilterRow>) => onChange({ ...form, rows: form.rows.map((row, i) => (i === index ? { ...row, ...change } : row)) });
  const removeRow = (index: number) => onChange({ ...form, rows: form.rows.filter((_, i) => i !== index) });

  return (
    <div className="space-y-3">
      <fieldset className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm">
        <legend className="mb-1 w-full text-sm font-medium">{t("matchLegend")}</legend>
        {(["all", "any"] as const).map((match) => (
          <label key={match} className="inline-flex items-center gap-2">
            <input type="radio" name={`${id}-match`} value={match} checked={form.match === match} onChange={() => onChange({ ...form, match })} className="accent-[var(--primary)]" />
            {t(match)}
          </label>
        ))}
      </fieldset>
      <div className="hidden grid-cols-[minmax(0,1fr)_10rem_minmax(0,1fr)_2rem] gap-2 text-xs font-medium text-muted-foreground sm:grid" aria-hidden>
        <span>{t("field")}</span>
        <span>{t("operator")}</span>
        <span>{t("value")}</span>
      </div>
      {form.rows.length === 0 ? <p className="text-sm text-muted-foreground">{t("noRows")}</p> : null}
      <ol className="space-y-2">
        {form.rows.map((row, index) => {
          const n = index + 1;
          const problem = problems[index] ?? null;
          const errorId = `${id}-row-${index}-error`;
          return (
            <li key={index} data-testid="filter-row">
              <div className="grid grid-cols-[minmax(0,1fr)_auto] gap-2 sm:grid-cols-[minmax(0,1fr)_10rem_minmax(0,1fr)_2rem]">
                <Input
                  aria-label={t("fieldOf", { n })}
                  value={row.path}
                  onChange={(event) => setRow(index, { path: event.target.value })}
                  placeholder="data.amount"
                  maxLength={256}
                  list={`${id}-paths`}
                  className="col-span-2 font-mono text-xs sm:col-span-1"
                  aria-invalid={problem === "pathMissing" || problem === "pathInvalid" ? true : undefined}
                  aria-describedby={problem ? errorId : undefined}
                />
                <Select aria-label={t("operatorOf", { n })} value={row.operator} onChange={(event) => setRow(index, { operator: event.target.value as FilterRow["operator"] })}>
                  {FORM_OPERATORS.map((operator) => (
                    <option key={operator} value={operator}>
                      {t(`operators.${operator}`)}
                    </option>
                  ))}
                </Select>
                <Input
                  aria-label={t("valueOf", { n })}
                  value={takesNoValue(row.operator) ? "" : row.value}
                  onChange={(event) => setRow(index, { value: event.target.value })}
                  disabled={takesNoValue(row.operator)}
                  placeholder={takesNoValue(row.operator) ? t("noValue") : takesList(row.operator) ? "JPY, USD" : "1000"}
                  maxLength={2000}
                  className="col-span-2 font-mono text-xs sm:col-span-1"
                  aria-invalid={problem && problem !== "pathMissing" && problem !== "pathInvalid" ? true : undefined}
                  aria-describedby={problem ? errorId : undefined}
                />
                <Button variant="ghost" size="icon" aria-label={t("removeRow", { n })} title={t("removeRow", { n })} onClick={() => removeRow(index)} className="row-start-2 sm:row-start-auto">
                  <X aria-hidden className="h-4 w-4" />
                </Button>
              </div>
              {problem ? (
                <p id={errorId} role="alert" className="mt-1 text-xs text-danger">
                  {t(`problems.${problem}`)}
                </p>
              ) : null}
            </li>
          );
        })}
      </ol>
      <datalist id={`${id}-paths`}>
        {[...suggestions].map((path) => (
          <option key={path} value={path} />
        ))}
      </datalist>
      <Button variant="secondary" size="sm" onClick={() => onChange({ ...form, rows: [...form.rows, emptyRow()] })}>
        <Plus aria-hidden className="h-3.5 w-3.5" />
        {t("addRow")}
      </Button>
      <p className="text-xs text-muted-foreground">{t("hint")}</p>
    </div>
  );
}

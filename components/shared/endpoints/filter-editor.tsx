"use client";

import { FlaskConical, Funnel, Pencil } from "lucide-react";
import { useTranslations } from "next-intl";
import { useId, useRef, useState } from "react";
import { toast } from "sonner";
import { useErrorText } from "../error-message";
import type { Endpoint } from "../resources";
import { useTestFilter, useUpdateEndpoint } from "../queries/endpoints";
import { Button } from "../../ui/button";
import { cn } from "../../ui/cn";
import { Dialog, DialogContent, DialogTrigger } from "../../ui/dialog";
import { Textarea } from "../../ui/input";
import { emptyRow, filterText, filterToForm, formToFilter, parseFilterText, type Filter, type FilterForm, type FormMisfit, type RowProblem } from "./filter-form";
import { FilterRows } from "./filter-rows";
import { FilterTestResults } from "./filter-test-results";
import { FilterFaults, filterFaults } from "./filter-words";

type View = "form" | "json";
const VIEWS: View[] = ["form", "json"];

/** A form with at least one row to type in. */
const withRow = (form: FilterForm): FilterForm => (form.rows.length > 0 ? form : { ...form, rows: [emptyRow()] });

/**
 * The payload filter's editor: a form for field conditions, JSON for everything else, and a test
 * of the filter being edited against the endpoint's last messages. `reason` says why this viewer
 * may not save (null: they may); they can still try filters, since a test changes nothing.
 */
export function FilterEditor({ endpoint, reason }: { endpoint: Endpoint; reason: string | null }) {
  const t = useTranslations("endpoints.filter");
  const common = useTranslations("common");
  const errorText = useErrorText();
  const id = useId();
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);
  const [open, setOpen] = useState(false);
  const [view, setView] = useState<View>("form");
  const [form, setForm] = useState<FilterForm>({ match: "all", rows: [] });
  const [problems, setProblems] = useState<(RowProblem | null)[]>([]);
  const [text, setText] = useState("");
  const [textProblem, setTextProblem] = useState<"json" | "notObject" | null>(null);
  const [misfit, setMisfit] = useState<FormMisfit | null>(null);
  const [tested, setTested] = useState<string | null>(null);
  const save = useUpdateEndpoint(endpoint.id);
  const test = useTestFilter(endpoint.id);
  const mayEdit = reason === null;

  const start = () => {
    const read = filterToForm(endpoint.filter);
    setText(filterText(endpoint.filter));
    setProblems([]);
    setTextProblem(null);
    setTested(null);
    if ("form" in read) {
      setView("form");
      setMisfit(null);
      setForm(withRow(read.form));
    } else {
      // What the form cannot say opens as JSON, with the reason, rather than being cut down to fit.
      setView("json");
      setMisfit(read.misfit);
      setForm(withRow({ match: "all", rows: [] }));
    }
  };
  const change = (next: boolean) => {
    setOpen(next);
    if (next) start();
    save.reset();
    test.reset();
  };

  /** The filter the view in front says, without marking anything: what a test was run on is compared with it. */
  const current = (): string | undefined => {
    if (view === "form") {
      const read = formToFilter(form);
      return read.problems.some(Boolean) ? undefined : JSON.stringify(read.filter);
    }
    const read = parseFilterText(text);
    return "problem" in read ? undefined : JSON.stringify(read.filter);
  };
  /** The filter being edited, or undefined when the view's own checks refuse it (they then say why). */
  const draft = (): { filter: Filter | null } | undefined => {
    if (view === "form") {
      const read = formToFilter(form);
      setProblems(read.problems);
      return read.problems.some(Boolean) ? undefined : { filter: read.filter };
    }
    const read = parseFilterText(text);
    setTextProblem("problem" in read ? read.problem : null);
    return "problem" in read ? undefined : read;
  };

  const show = (next: View) => {
    if (next === view) return;
    const edited = draft();
    if (!edited) return;
    if (next === "json") {
      setText(filterText(edited.filter));
      setMisfit(null);
      setView("json");
      return;
    }
    const read = filterToForm(edited.filter);
    if ("misfit" in read) {
      setMisfit(read.misfit);
      return;
    }
    setMisfit(null);
    setForm(withRow(read.form));
    setProblems([]);
    setView("form");
  };

  const runTest = () => {
    const edited = draft();
    if (!edited) return;
    // One refusal on screen at a time: the latest action's.
    if (save.error) save.reset();
    test.mutate(edited.filter, { onSuccess: () => setTested(JSON.stringify(edited.filter)) });
  };

  const submit = () => {
    const edited = draft();
    if (!edited) return;
    // Nothing before and nothing now: there is nothing to save, nor a "removed" to announce.
    if (edited.filter === null && endpoint.filter === null) return change(false);
    if (test.error) test.reset();
    save.mutate(
      { filter: edited.filter },
      {
        onSuccess: () => {
          toast.success(edited.filter ? t("saved") : t("removed"));
          change(false);
        },
        onError: (error) => toast.error(errorText(error)),
      },
    );
  };

  const saveFaults = filterFaults(save.error);
  const testFaults = filterFaults(test.error);
  const title = mayEdit ? t("editTitle") : t("tryTitle");
  const moveTab = (to: number) => {
    const next = VIEWS[(to + VIEWS.length) % VIEWS.length]!;
    show(next);
    tabs.current[VIEWS.indexOf(next)]?.focus();
  };

  return (
    <Dialog open={open} onOpenChange={change}>
      <DialogTrigger asChild>
        <Button variant="secondary" size="sm">
          {mayEdit ? <Pencil aria-hidden className="h-3.5 w-3.5" /> : <FlaskConical aria-hidden className="h-3.5 w-3.5" />}
          {mayEdit ? (endpoint.filter ? t("edit") : t("add")) : t("try")}
        </Button>
      </DialogTrigger>
      <DialogContent title={title} description={mayEdit ? t("editorDescription") : t("tryDescription")} closeLabel={common("close")} className="sm:max-w-3xl">
        <form
          className="space-y-4"
          onSubmit={(event) => {
            event.preventDefault();
            // Enter saves where the viewer may save, and tests where they may only try.
            if (mayEdit) submit();
            else runTest();
          }}
        >
          <div role="tablist" aria-label={t("views")} className="flex gap-1 border-b border-border">
            {VIEWS.map((v, i) => (
              <button
                key={v}
                ref={(element) => {
                  tabs.current[i] = element;
                }}
                type="button"
                role="tab"
                id={`${id}-tab-${v}`}
                aria-selected={view === v}
                aria-controls={`${id}-panel`}
                tabIndex={view === v ? 0 : -1}
                onClick={() => show(v)}
                onKeyDown={(event) => {
                  if (event.key === "ArrowRight") moveTab(i + 1);
                  else if (event.key === "ArrowLeft") moveTab(i - 1);
                  else return;
                  event.preventDefault();
                }}
                className={cn(
                  "-mb-px border-b-2 px-3 py-2 text-sm font-medium whitespace-nowrap focus-visible:outline-2 focus-visible:outline-ring",
                  view === v ? "border-primary text-foreground" : "border-transparent text-muted-foreground hover:text-foreground",
                )}
              >
                {t(`view.${v}`)}
              </button>
            ))}
          </div>
          <div role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-tab-${view}`} className="space-y-3">
            {misfit ? (
              <p className="rounded-md border border-border bg-muted p-3 text-sm" data-testid="filter-misfit">
                {t(`misfit.${misfit}`)}
              </p>
            ) : null}
            {view === "form" ? (
              <FilterRows form={form} problems={problems} eventTypes={endpoint.event_types} onChange={setForm} />
            ) : (
              <div className="space-y-1.5">
                <Textarea
                  aria-label={t("jsonLabel")}
                  value={text}
                  onChange={(event) => {
                    setText(event.target.value);
                    // The reason it opened as JSON was about the filter it opened with, not the one typed since.
                    setMisfit(null);
                  }}
                  placeholder={'{ "data.amount": { "$gte": 1000 }, "data.currency": { "$in": ["JPY", "USD"] } }'}
                  spellCheck={false}
                  className="min-h-48"
                  aria-invalid={textProblem ? true : undefined}
                  aria-describedby={`${id}-json-note`}
                />
                <p id={`${id}-json-note`} role={textProblem ? "alert" : undefined} className={cn("text-xs", textProblem ? "text-danger" : "text-muted-foreground")}>
                  {textProblem ? t(`jsonProblems.${textProblem}`) : t("jsonHint")}
                </p>
              </div>
            )}
          </div>

          <section aria-labelledby={`${id}-test`} className="space-y-2 border-t border-border pt-4">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h3 id={`${id}-test`} className="text-sm font-semibold">
                {mayEdit ? t("test.title") : t("test.tryTitle")}
              </h3>
              <Button variant="secondary" size="sm" onClick={runTest} disabled={test.isPending}>
                <FlaskConical aria-hidden className="h-3.5 w-3.5" />
                {test.isPending ? t("test.running") : t("test.run")}
              </Button>
            </div>
            <div aria-live="polite">
              {test.error ? (
                testFaults ? (
                  <FilterFaults faults={testFaults} testId="filter-test-faults" />
                ) : (
                  <p role="alert" className="text-sm text-danger">
                    {errorText(test.error)}
                  </p>
                )
              ) : test.data ? (
                <FilterTestResults results={test.data.results} stale={tested !== null && tested !== current()} />
              ) : (
                <p className="text-xs text-muted-foreground">{t("test.description")}</p>
              )}
            </div>
          </section>

          {save.error ? (
            saveFaults ? (
              <FilterFaults faults={saveFaults} testId="filter-save-faults" />
            ) : (
              <p role="alert" className="text-sm text-danger">
                {errorText(save.error)}
              </p>
            )
          ) : null}
          {!mayEdit ? <p className="text-xs text-muted-foreground">{reason}</p> : null}
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => change(false)}>
              {mayEdit ? common("cancel") : common("close")}
            </Button>
            {mayEdit ? (
              <Button type="submit" disabled={save.isPending}>
                <Funnel aria-hidden className="h-4 w-4" />
                {save.isPending ? common("saving") : t("save")}
              </Button>
            ) : null}
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}

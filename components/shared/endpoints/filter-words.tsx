"use client";

import { useTranslations } from "next-intl";
import { Fragment, type ReactNode } from "react";
import { ApiError } from "../api";
import { parseValue, pointerSegments, type Filter } from "./filter-form";

/** Past this, a value in words is cut (the JSON beside it has it whole). */
const SHOWN_CHARS = 120;
/** The filter checks allow 10 objects deep; words stop there too, whatever they are given. */
const MAX_DEPTH = 12;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const cut = (text: string) => (text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}…` : text);

/** A value as words show it: text bare unless it would read as something else ("10", "true", ""), which keeps its quotes. */
function shown(value: unknown): string {
  if (Array.isArray(value)) return cut(value.map(shown).join(", "));
  if (typeof value === "string") return cut(parseValue(value).value === value && value.trim() === value && !value.includes(",") ? value : JSON.stringify(value));
  return cut(JSON.stringify(value) ?? String(value));
}

const FIELD_WORDS = { $eq: "eq", $neq: "neq", $gt: "gt", $gte: "gte", $lt: "lt", $lte: "lte", $in: "in", $nin: "nin" } as const;

/**
 * A filter in words: "data.amount ≥ 1000 and data.currency is one of JPY, USD". Paths and values
 * are text in the sentence (never markup, whatever they hold); any group nested in another is put
 * in parentheses so "and" and "or" read unambiguously.
 */
export function FilterWords({ filter }: { filter: Filter }) {
  const t = useTranslations("endpoints.filter.words");
  // Tags apart from the arguments they wrap: one name for both would be the string, not the tag.
  const tags = {
    field: (chunks: ReactNode) => <code className="rounded bg-muted px-1 font-mono text-xs break-all">{chunks}</code>,
    val: (chunks: ReactNode) => <span className="font-medium break-all">{chunks}</span>,
  };
  const joined = (parts: ReactNode[], word: "and" | "or") =>
    parts.map((part, i) => (
      <Fragment key={i}>
        {i > 0 ? <span className="text-muted-foreground"> {t(word)} </span> : null}
        {part}
      </Fragment>
    ));
  const grouped = (parts: ReactNode[], word: "and" | "or", alone: boolean) => (alone || parts.length === 1 ? joined(parts, word) : <>({joined(parts, word)})</>);
  const negated = (inner: ReactNode) => (
    <>
      {t("notBefore")}
      {inner}
      {t("notAfter")}
    </>
  );

  const field = (path: string, condition: unknown, depth: number): ReactNode[] => {
    if (!isObject(condition) || !Object.keys(condition).some((key) => key.startsWith("$"))) return [t.rich("eq", { ...tags, path: cut(path), value: shown(condition) })];
    if (depth > MAX_DEPTH) return ["…"];
    return Object.entries(condition).map(([op, operand]) => {
      if (op === "$exists") return t.rich(operand === false ? "notExists" : "exists", { ...tags, path: cut(path) });
      if (op === "$not") return negated(grouped(field(path, operand, depth + 1), "and", false));
      const words = Object.hasOwn(FIELD_WORDS, op) ? FIELD_WORDS[op as keyof typeof FIELD_WORDS] : undefined;
      return words ? t.rich(words, { ...tags, path: cut(path), value: shown(operand) }) : t.rich("other", { ...tags, path: cut(path), value: shown({ [op]: operand }) });
    });
  };

  const query = (filter: Record<string, unknown>, depth: number): ReactNode[] => {
    if (depth > MAX_DEPTH) return ["…"];
    return Object.entries(filter).flatMap(([key, operand]): ReactNode[] => {
      if ((key === "$and" || key === "$or") && Array.isArray(operand)) {
        const parts = operand.map((item) => (isObject(item) ? grouped(query(item, depth + 1), "and", false) : shown(item)));
        return [grouped(parts, key === "$and" ? "and" : "or", Object.keys(filter).length === 1 && depth === 0)];
      }
      if (key === "$not" && isObject(operand)) return [negated(grouped(query(operand, depth + 1), "and", false))];
      return field(key, operand, depth + 1);
    });
  };

  return <>{grouped(query(filter, 0), "and", true)}</>;
}

/** The faults of a filter the server refused (422 invalid_filter), each with its JSON pointer; null for any other error. */
export function filterFaults(error: unknown): { pointer: string; message: string }[] | null {
  if (!(error instanceof ApiError) || error.problem.code !== "invalid_filter") return null;
  const errors = error.problem.errors ?? [];
  if (errors.length === 0) return [{ pointer: "/filter", message: error.problem.detail ?? error.problem.code }];
  return errors.map((e) => ({ pointer: "pointer" in e && typeof e.pointer === "string" ? e.pointer : "/filter", message: e.message }));
}

/**
 * Each fault beside where it is, in words: the pointer `/filter/$or/1/data.amount/$gt` reads
 * "$or › condition 2 › data.amount › $gt" (indexes counted from 1, as people count).
 */
export function FilterFaults({ faults, testId }: { faults: { pointer: string; message: string }[]; testId: string }) {
  const t = useTranslations("endpoints.filter.faults");
  const place = (pointer: string) => {
    const segments = pointerSegments(pointer);
    const inside = segments[0] === "filter" ? segments.slice(1) : segments;
    if (inside.length === 0) return t("whole");
    return inside.map((segment) => (/^\d+$/.test(segment) ? t("item", { n: Number(segment) + 1 }) : cut(segment))).join(" › ");
  };
  return (
    <div role="alert" className="rounded-md border border-danger/30 bg-danger/5 p-3 text-sm" data-testid={testId}>
      <p className="font-medium">{t("title", { count: faults.length })}</p>
      <ul className="mt-2 space-y-1">
        {faults.map((fault, i) => (
          <li key={i} className="break-words">
            <span className="text-muted-foreground">{t("at")} </span>
            <code className="rounded bg-muted px-1 font-mono text-xs break-all">{place(fault.pointer)}</code>
            <span className="text-muted-foreground">: </span>
            {fault.message}
          </li>
        ))}
      </ul>
    </div>
  );
}

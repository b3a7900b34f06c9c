import type { Endpoint } from "../resources";

/**
 * The filter editor's form, and the filter it stands for. The form holds the common case — field
 * conditions joined by "all" or "any" — and says why when a filter is more than that, so the editor
 * opens it as JSON instead. The server checks every filter again (lib/filters/check-filter.ts); the
 * checks here only put a row's mistake beside the row.
 */
export type Filter = NonNullable<Endpoint["filter"]>;

export const FORM_OPERATORS = ["eq", "neq", "gt", "gte", "lt", "lte", "in", "nin", "exists", "notExists"] as const;
export type FormOperator = (typeof FORM_OPERATORS)[number];

export type FilterRow = { path: string; operator: FormOperator; value: string };
export type FilterForm = { match: "all" | "any"; rows: FilterRow[] };

/** Why a filter does not fit the form: the key of the sentence the editor says it with. */
export type FormMisfit = "not" | "nested" | "value" | "operator" | "empty";

/** What is wrong with a row, as the key of its sentence. */
export type RowProblem = "pathMissing" | "pathInvalid" | "valueMissing" | "valueQuote" | "valueNotComparable" | "listEmpty";

type Scalar = string | number | boolean | null;

const OPERATOR_OF: Record<Exclude<FormOperator, "eq" | "exists" | "notExists">, string> = {
  neq: "$neq",
  gt: "$gt",
  gte: "$gte",
  lt: "$lt",
  lte: "$lte",
  in: "$in",
  nin: "$nin",
};
const FORM_OPERATOR_OF: Record<string, FormOperator> = { $eq: "eq", ...Object.fromEntries(Object.entries(OPERATOR_OF).map(([form, op]) => [op, form as FormOperator])) };

export const takesNoValue = (operator: FormOperator) => operator === "exists" || operator === "notExists";
export const takesList = (operator: FormOperator) => operator === "in" || operator === "nin";

export const emptyRow = (): FilterRow => ({ path: "", operator: "eq", value: "" });

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const isScalar = (value: unknown): value is Scalar => value === null || ["string", "number", "boolean"].includes(typeof value);
const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/**
 * A typed value as the form reads it: a number, true, false and null as themselves, text in double
 * quotes as that text (so "10" stays text), anything else as the text typed. Undefined when empty.
 */
export function parseValue(text: string): { value?: Scalar; problem?: RowProblem } {
  const typed = text.trim();
  if (typed === "") return {};
  if (typed.startsWith('"')) {
    try {
      const value: unknown = JSON.parse(typed);
      return typeof value === "string" ? { value } : { problem: "valueQuote" };
    } catch {
      return { problem: "valueQuote" };
    }
  }
  if (typed === "true") return { value: true };
  if (typed === "false") return { value: false };
  if (typed === "null") return { value: null };
  if (NUMBER.test(typed) && Number.isFinite(Number(typed))) return { value: Number(typed) };
  return { value: typed };
}

/** A comma-separated list of values, each read as parseValue reads one; a quoted item may hold commas. */
export function parseList(text: string): { values: Scalar[]; problem?: RowProblem } {
  const values: Scalar[] = [];
  let at = 0;
  while (at < text.length) {
    while (at < text.length && /\s/.test(text[at]!)) at += 1;
    if (at >= text.length) break;
    let end: number;
    if (text[at] === '"') {
      end = at + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === "\\" ? 2 : 1;
      if (end >= text.length) return { values, problem: "valueQuote" };
      end += 1;
      const rest = text.indexOf(",", end);
      if (text.slice(end, rest === -1 ? undefined : rest).trim() !== "") return { values, problem: "valueQuote" };
    } else {
      const comma = text.indexOf(",", at);
      end = comma === -1 ? text.length : comma;
    }
    const item = parseValue(text.slice(at, end));
    if (item.problem) return { values, problem: item.problem };
    if ("value" in item) values.push(item.value!);
    const comma = text.indexOf(",", end);
    at = comma === -1 ? text.length : comma + 1;
  }
  return { values };
}

/** A value as the form shows it: what parseValue reads back as the same value. */
export function valueText(value: Scalar): string {
  if (typeof value !== "string") return String(value);
  const read = parseValue(value);
  return read.value === value && value === value.trim() && !value.includes(",") ? value : JSON.stringify(value);
}

const validPath = (path: string) => !path.startsWith("$") && path.split(".").every((segment) => segment !== "");

/**
 * The filter the form stands for, or each row's problem. Rows left wholly empty are skipped; no
 * rows is no filter (null). "All" merges a field's operators into one object where none repeats
 * (the way one writes it by hand), else joins the rows with $and; "any" joins them with $or.
 */
export function formToFilter(form: FilterForm): { filter: Filter | null; problems: (RowProblem | null)[] } {
  const problems: (RowProblem | null)[] = [];
  const conditions: [string, string | null, unknown][] = [];
  for (const row of form.rows) {
    const path = row.path.trim();
    if (path === "" && (takesNoValue(row.operator) || row.value.trim() === "")) {
      problems.push(null);
      continue;
    }
    const problem = rowProblem(row, path);
    problems.push(problem);
    if (problem) continue;
    if (row.operator === "exists" || row.operator === "notExists") conditions.push([path, "$exists", row.operator === "exists"]);
    else if (takesList(row.operator)) conditions.push([path, OPERATOR_OF[row.operator as "in" | "nin"], parseList(row.value).values]);
    else conditions.push([path, row.operator === "eq" ? null : OPERATOR_OF[row.operator as keyof typeof OPERATOR_OF], parseValue(row.value).value]);
  }
  if (problems.some((p) => p !== null) || conditions.length === 0) return { filter: null, problems };
  const one = ([path, op, operand]: (typeof conditions)[number]): Filter => ({ [path]: op === null ? operand : { [op]: operand } });
  if (form.match === "any") return { filter: conditions.length === 1 ? one(conditions[0]!) : { $or: conditions.map(one) }, problems };
  // Maps and fromEntries, not assignment: a path is whatever was typed, "__proto__" included.
  const merged = new Map<string, Map<string, unknown>>();
  let repeats = false;
  for (const [path, op, operand] of conditions) {
    const ops = merged.get(path) ?? new Map<string, unknown>();
    merged.set(path, ops);
    const key = op ?? "$eq";
    if (ops.has(key)) repeats = true;
    ops.set(key, operand);
  }
  if (repeats) return { filter: { $and: conditions.map(one) }, problems };
  const filter: Filter = Object.fromEntries(
    // A lone equality is written bare, as the docs write it: {"data.currency": "JPY"}.
    [...merged].map(([path, ops]) => [path, ops.size === 1 && ops.has("$eq") ? ops.get("$eq") : Object.fromEntries(ops)]),
  );
  return { filter, problems };
}

function rowProblem(row: FilterRow, path: string): RowProblem | null {
  if (path === "") return "pathMissing";
  if (!validPath(path)) return "pathInvalid";
  if (takesNoValue(row.operator)) return null;
  if (takesList(row.operator)) {
    const list = parseList(row.value);
    return list.problem ?? (list.values.length === 0 ? "listEmpty" : null);
  }
  const read = parseValue(row.value);
  if (read.problem) return read.problem;
  if (!("value" in read)) return "valueMissing";
  if (["gt", "gte", "lt", "lte"].includes(row.operator) && typeof read.value !== "number" && typeof read.value !== "string") return "valueNotComparable";
  return null;
}

/** The form for a filter, or why it does not fit one. No filter is an empty "all". */
export function filterToForm(filter: Filter | null): { form: FilterForm } | { misfit: FormMisfit } {
  if (filter === null) return { form: { match: "all", rows: [] } };
  const keys = Object.keys(filter);
  const group = keys.length === 1 && (keys[0] === "$and" || keys[0] === "$or") ? keys[0] : null;
  if (group) {
    const items = filter[group];
    if (!Array.isArray(items)) return { misfit: "operator" };
    // An empty group would read as an empty form, which is no filter at all: leave it to the JSON.
    if (items.length === 0) return { misfit: "empty" };
    const rows: FilterRow[] = [];
    for (const item of items) {
      if (!isObject(item)) return { misfit: "operator" };
      const read = fieldRows(item);
      if ("misfit" in read) return read;
      // Under "any" each alternative must be one row: {a, b} inside $or is "a and b", a group.
      if (group === "$or" && read.rows.length !== 1) return { misfit: "nested" };
      rows.push(...read.rows);
    }
    return { form: { match: group === "$or" ? "any" : "all", rows } };
  }
  const read = fieldRows(filter);
  return "misfit" in read ? read : { form: { match: "all", rows: read.rows } };
}

function fieldRows(query: Record<string, unknown>): { rows: FilterRow[] } | { misfit: FormMisfit } {
  const rows: FilterRow[] = [];
  for (const [path, condition] of Object.entries(query)) {
    if (path === "$not") return { misfit: "not" };
    if (path.startsWith("$")) return { misfit: path === "$and" || path === "$or" ? "nested" : "operator" };
    if (isScalar(condition)) {
      rows.push({ path, operator: "eq", value: valueText(condition) });
      continue;
    }
    if (!isObject(condition) || !Object.keys(condition).some((key) => key.startsWith("$"))) return { misfit: "value" };
    for (const [op, operand] of Object.entries(condition)) {
      if (op === "$not") return { misfit: "not" };
      if (op === "$exists") {
        if (typeof operand !== "boolean") return { misfit: "value" };
        rows.push({ path, operator: operand ? "exists" : "notExists", value: "" });
        continue;
      }
      const operator = Object.hasOwn(FORM_OPERATOR_OF, op) ? FORM_OPERATOR_OF[op] : undefined;
      if (!operator) return { misfit: "operator" };
      if (takesList(operator)) {
        if (!Array.isArray(operand) || !operand.every(isScalar)) return { misfit: "value" };
        rows.push({ path, operator, value: operand.map(valueText).join(", ") });
      } else {
        if (!isScalar(operand)) return { misfit: "value" };
        rows.push({ path, operator, value: valueText(operand) });
      }
    }
  }
  return { rows };
}

/** The JSON view's text, read: no filter when empty or `{}`, else an object or why not. */
export function parseFilterText(text: string): { filter: Filter | null } | { problem: "json" | "notObject" } {
  if (text.trim() === "") return { filter: null };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: "json" };
  }
  if (value === null) return { filter: null };
  if (!isObject(value)) return { problem: "notObject" };
  return { filter: Object.keys(value).length === 0 ? null : value };
}

export const filterText = (filter: Filter | null) => (filter === null ? "" : JSON.stringify(filter, null, 2));

/** A JSON pointer (RFC 6901) as its segments, `~1` and `~0` read back. */
export const pointerSegments = (pointer: string) =>
  pointer
    .split("/")
    .slice(1)
    .map((segment) => segment.replaceAll("~1", "/").replaceAll("~0", "~"));

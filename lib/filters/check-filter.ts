import { AppError, type FieldError } from "../errors";
import { dottedPathProblem } from "./dotted-path";

/** A filter's whole JSON text, in UTF-8 bytes. */
export const MAX_FILTER_BYTES = 4096;
/** Comparisons in one filter: each operator, and each field given a value to equal. */
export const MAX_FILTER_CONDITIONS = 50;
/** Objects inside objects: the filter itself is 1, `{"a": {"$gt": 1}}` is 2. */
export const MAX_FILTER_DEPTH = 10;

/** The operators a field's condition may use. No regex: a pattern is a ReDoS surface at fan-out. */
const FIELD_OPERATORS = new Set(["$eq", "$neq", "$gt", "$gte", "$lt", "$lte", "$in", "$nin", "$exists", "$not"]);
/** The operators that join whole filters. */
const LOGICAL_OPERATORS = new Set(["$and", "$or", "$not"]);

/** An endpoint's filter: a MongoDB-style query over the payload and the event type (docs/delivery.md#payload-filters). */
export type Filter = Record<string, unknown>;

/** A filter the rules refuse: 422 `invalid_filter`, each fault with the JSON pointer to it. */
export class InvalidFilterError extends AppError {
  constructor(errors: FieldError[]) {
    super(422, "invalid_filter", "Invalid filter", `The filter is invalid: ${errors[0]!.message}${errors.length > 1 ? ` (and ${errors.length - 1} more)` : ""}.`, errors);
  }
}

/** RFC 6901: `~` and `/` in a key are written `~0` and `~1`. */
const pointerTo = (base: string, key: string | number) => `${base}/${String(key).replaceAll("~", "~0").replaceAll("/", "~1")}`;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const isScalar = (value: unknown) => value === null || ["string", "number", "boolean"].includes(typeof value);
const describe = (value: unknown) => (value === null ? "null" : Array.isArray(value) ? "an array" : typeof value === "object" ? "an object" : `a ${typeof value}`);

/**
 * The filter's faults, each with the JSON pointer to it under `base` (the field's own, `/filter`):
 * an unknown operator, an operand of the wrong type, a path that is not a dotted path, more than
 * MAX_FILTER_CONDITIONS comparisons, deeper than MAX_FILTER_DEPTH objects, larger than
 * MAX_FILTER_BYTES. Empty when the filter is good. The walk stops at the depth bound, so a hostile
 * document costs no more than a legal one.
 */
export function filterProblems(filter: unknown, base = "/filter"): FieldError[] {
  const problems: FieldError[] = [];
  const fault = (pointer: string, message: string) => problems.push({ path: "filter", pointer, message });
  if (!isObject(filter)) {
    fault(base, `must be an object, not ${describe(filter)}`);
    return problems;
  }
  const bytes = Buffer.byteLength(JSON.stringify(filter));
  if (bytes > MAX_FILTER_BYTES) {
    fault(base, `is ${bytes} bytes; at most ${MAX_FILTER_BYTES}`);
    return problems;
  }
  let conditions = 0;
  let tooMany = false;
  const count = (pointer: string) => {
    conditions += 1;
    if (conditions > MAX_FILTER_CONDITIONS && !tooMany) {
      tooMany = true;
      fault(pointer, `more than ${MAX_FILTER_CONDITIONS} conditions`);
    }
  };
  const tooDeep = (pointer: string, depth: number) => {
    if (depth <= MAX_FILTER_DEPTH) return false;
    fault(pointer, `nested more than ${MAX_FILTER_DEPTH} objects deep`);
    return true;
  };

  // A literal a field is compared with: any JSON value, but no `$` key inside an object — that is
  // an operator where none is read, most likely a nested path meant as `a.b`.
  const literal = (value: unknown, pointer: string, depth: number): void => {
    if (Array.isArray(value)) return value.forEach((item, i) => literal(item, pointerTo(pointer, i), depth));
    if (!isObject(value)) return;
    if (tooDeep(pointer, depth)) return;
    for (const [key, item] of Object.entries(value)) {
      if (key.startsWith("$")) fault(pointerTo(pointer, key), `"${key}" is an operator inside a value; to reach a nested field, write its dotted path ("a.b")`);
      else literal(item, pointerTo(pointer, key), depth + 1);
    }
  };

  const operators = (expression: Record<string, unknown>, pointer: string, depth: number): void => {
    if (tooDeep(pointer, depth)) return;
    if (Object.keys(expression).length === 0) fault(pointer, "an operator object needs at least one operator");
    for (const [op, operand] of Object.entries(expression)) {
      const at = pointerTo(pointer, op);
      if (!op.startsWith("$")) {
        fault(at, `"${op}" is a field among operators; use either operators or a value to equal`);
        continue;
      }
      if (!FIELD_OPERATORS.has(op)) {
        fault(at, op === "$regex" ? "regular expressions are not allowed" : `unknown operator "${op}"; use one of ${[...FIELD_OPERATORS].join(" ")}`);
        continue;
      }
      if (op === "$not") {
        if (isObject(operand) && Object.keys(operand).every((key) => key.startsWith("$"))) operators(operand, at, depth + 1);
        else fault(at, "$not takes an operator object, such as {\"$in\": [1, 2]}");
        continue;
      }
      count(at);
      if (op === "$eq" || op === "$neq") literal(operand, at, depth + 1);
      else if (op === "$exists") {
        if (typeof operand !== "boolean") fault(at, `$exists takes true or false, not ${describe(operand)}`);
      } else if (op === "$in" || op === "$nin") {
        if (!Array.isArray(operand)) fault(at, `${op} takes an array, not ${describe(operand)}`);
        else literal(operand, at, depth + 1);
      } else if (typeof operand !== "number" && typeof operand !== "string") {
        fault(at, `${op} takes a number or a string, not ${describe(operand)}`);
      }
    }
  };

  const condition = (value: unknown, pointer: string, depth: number): void => {
    if (isObject(value) && Object.keys(value).some((key) => key.startsWith("$"))) return operators(value, pointer, depth + 1);
    count(pointer);
    if (!isScalar(value)) literal(value, pointer, depth + 1);
  };

  const query = (value: Record<string, unknown>, pointer: string, depth: number): void => {
    if (tooDeep(pointer, depth)) return;
    for (const [key, operand] of Object.entries(value)) {
      const at = pointerTo(pointer, key);
      if (LOGICAL_OPERATORS.has(key)) {
        if (key === "$not") {
          if (isObject(operand)) query(operand, at, depth + 1);
          else fault(at, `$not takes a filter object, not ${describe(operand)}`);
        } else if (!Array.isArray(operand) || operand.length === 0) {
          fault(at, `${key} takes a non-empty array of filters`);
        } else {
          operand.forEach((item, i) => {
            if (isObject(item)) query(item, pointerTo(at, i), depth + 1);
            else fault(pointerTo(at, i), `must be a filter object, not ${describe(item)}`);
          });
        }
      } else if (key.startsWith("$")) {
        fault(at, key === "$regex" ? "regular expressions are not allowed" : `unknown operator "${key}"; a filter joins filters with $and, $or and $not`);
      } else {
        const problem = dottedPathProblem(key);
        if (problem) fault(at, problem);
        else condition(operand, at, depth);
      }
      if (problems.length >= 20) return;
    }
  };

  query(filter, base, 1);
  return problems.slice(0, 20);
}

/** The filter, checked: null and `{}` are no filter (null), a bad one throws InvalidFilterError. */
export function checkFilter(filter: unknown, base = "/filter"): Filter | null {
  if (filter === null) return null;
  const problems = filterProblems(filter, base);
  if (problems.length > 0) throw new InvalidFilterError(problems);
  return Object.keys(filter as Filter).length === 0 ? null : (filter as Filter);
}

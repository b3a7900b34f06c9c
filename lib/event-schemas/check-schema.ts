import { MissingRefError } from "ajv/dist/2020";
import { RE2JS } from "re2js";
import { AppError, type FieldError } from "../errors";
import { compileSchema, metaSchemaErrors, type SchemaValidator, type SchemaViolation } from "./compile-schema";

/** A schema's whole JSON text, in UTF-8 bytes: a catalogue entry, not a payload (and half a request body, so an example fits beside it). */
export const MAX_SCHEMA_BYTES = 32 * 1024;
/** Objects and arrays inside one another, the schema itself being 1. */
export const MAX_SCHEMA_DEPTH = 32;
/**
 * `uniqueItems` compares every pair of items, so it needs `maxItems` at most this beside it: a
 * payload of 1 MiB could otherwise hold 100,000 objects to compare pairwise.
 */
export const MAX_UNIQUE_ITEMS = 1000;

/** The only `$schema` there is here: Ajv's 2020-12 draft (with or without the empty fragment). */
const DRAFT_2020_12 = new Set(["https://json-schema.org/draft/2020-12/schema", "https://json-schema.org/draft/2020-12/schema#"]);

/** A schema the rules refuse: 422 `invalid_schema`, each fault with the JSON pointer to it. */
export class InvalidSchemaError extends AppError {
  constructor(errors: FieldError[]) {
    super(422, "invalid_schema", "Invalid schema", `The schema is invalid: ${summary(errors)}.`, errors);
  }
}

/** An example its event type's schema refuses: 422 `invalid_example`, each fault with its JSON pointer. */
export class InvalidExampleError extends AppError {
  constructor(errors: FieldError[]) {
    super(422, "invalid_example", "Invalid example", `The example does not match the schema: ${summary(errors)}.`, errors);
  }
}

/** A payload its event type's schema refuses under `reject`: 422 `payload_invalid`, each fault with its JSON pointer into the payload. */
export class PayloadInvalidError extends AppError {
  constructor(
    readonly version: number,
    violations: SchemaViolation[],
  ) {
    const errors = violations.map((v) => ({ path: "payload", pointer: v.pointer, message: v.message }));
    super(422, "payload_invalid", "Payload invalid", `The payload does not match version ${version} of its event type's schema: ${summary(errors)}.`, errors);
  }
}

const summary = (errors: { pointer?: string; message: string }[]) =>
  `${errors[0]!.pointer ? `${errors[0]!.pointer} ` : ""}${errors[0]!.message}${errors.length > 1 ? ` (and ${errors.length - 1} more)` : ""}`;

/** RFC 6901: `~` and `/` in a key are written `~0` and `~1`. */
export const pointerTo = (base: string, key: string | number) => `${base}/${String(key).replaceAll("~", "~0").replaceAll("/", "~1")}`;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

// Where a schema holds schemas (JSON Schema 2020-12's applicators, and draft-07's names for them
// that a schema from elsewhere may still use): walked for what runs on payloads. Values under any
// other keyword (`const`, `enum`, `default`, `examples`…) are data and never walked.
const ONE = ["additionalProperties", "items", "contains", "not", "if", "then", "else", "propertyNames", "unevaluatedItems", "unevaluatedProperties", "contentSchema", "additionalItems"];
const MAP = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"];
const LIST = ["allOf", "anyOf", "oneOf", "prefixItems", "items"];

/** Each schema object inside `schema` (itself first), with its pointer. */
function* subschemas(schema: unknown, pointer: string, depth = 0): Generator<[Json, string]> {
  if (!isObject(schema) || depth > MAX_SCHEMA_DEPTH) return;
  yield [schema, pointer];
  for (const key of ONE) yield* subschemas(schema[key], pointerTo(pointer, key), depth + 1);
  for (const key of MAP) {
    const map = schema[key];
    if (isObject(map)) for (const [name, sub] of Object.entries(map)) yield* subschemas(sub, pointerTo(pointerTo(pointer, key), name), depth + 2);
  }
  for (const key of LIST) {
    const list = schema[key];
    if (Array.isArray(list)) for (const [i, sub] of list.entries()) yield* subschemas(sub, pointerTo(pointerTo(pointer, key), i), depth + 2);
  }
}

/** The pointer to the first object or array nested deeper than MAX_SCHEMA_DEPTH, or null. */
function tooDeep(value: unknown, pointer: string, depth: number): string | null {
  if (typeof value !== "object" || value === null) return null;
  if (depth > MAX_SCHEMA_DEPTH) return pointer;
  for (const [key, item] of Object.entries(value)) {
    const found = tooDeep(item, pointerTo(pointer, key), depth + 1);
    if (found) return found;
  }
  return null;
}

function regexProblem(pattern: string): string | null {
  try {
    RE2JS.compile(pattern);
    return null;
  } catch (error) {
    return `is not a pattern this server runs (RE2 syntax: no backreferences or lookaround): ${error instanceof Error ? error.message : String(error)}`;
  }
}

/**
 * The schema's faults, each with the JSON pointer to it under `base` (the field's own, `/schema`):
 * larger than MAX_SCHEMA_BYTES, deeper than MAX_SCHEMA_DEPTH, a `$schema` other than 2020-12, a
 * pattern RE2 cannot run, `uniqueItems` without a small `maxItems`, what the 2020-12 meta-schema
 * refuses, a `$ref` outside the schema, anything else Ajv cannot compile. Empty when it is good;
 * then `validator` is the schema compiled. The bounds come first, so a hostile schema costs no
 * more than a legal one before it is refused.
 */
export function checkSchema(schema: Json, base = "/schema"): { problems: FieldError[]; validator: SchemaValidator | null } {
  const problems: FieldError[] = [];
  const fault = (pointer: string, message: string) => problems.push({ path: "schema", pointer, message });
  const refused = () => ({ problems, validator: null });

  const bytes = Buffer.byteLength(JSON.stringify(schema));
  if (bytes > MAX_SCHEMA_BYTES) fault(base, `is ${bytes} bytes; at most ${MAX_SCHEMA_BYTES}`);
  else {
    const deep = tooDeep(schema, base, 1);
    if (deep) fault(deep, `nested more than ${MAX_SCHEMA_DEPTH} deep`);
  }
  if (problems.length) return refused();
  if (schema.$schema !== undefined && !DRAFT_2020_12.has(schema.$schema as string)) {
    fault(pointerTo(base, "$schema"), 'must be "https://json-schema.org/draft/2020-12/schema" (or left out): schemas are JSON Schema 2020-12');
    return refused();
  }

  const refs: [string, string][] = [];
  for (const [sub, at] of subschemas(schema, base)) {
    if (typeof sub.pattern === "string") {
      const problem = regexProblem(sub.pattern);
      if (problem) fault(pointerTo(at, "pattern"), problem);
    }
    if (isObject(sub.patternProperties))
      for (const pattern of Object.keys(sub.patternProperties)) {
        const problem = regexProblem(pattern);
        if (problem) fault(pointerTo(pointerTo(at, "patternProperties"), pattern), problem);
      }
    if (sub.uniqueItems === true && !(typeof sub.maxItems === "number" && sub.maxItems <= MAX_UNIQUE_ITEMS))
      fault(pointerTo(at, "uniqueItems"), `needs "maxItems" of at most ${MAX_UNIQUE_ITEMS} beside it: every pair of items is compared`);
    for (const key of ["$ref", "$dynamicRef"]) if (typeof sub[key] === "string") refs.push([pointerTo(at, key), sub[key]]);
  }
  if (problems.length) return refused();

  const meta = metaSchemaErrors(schema);
  if (meta) {
    for (const error of meta.slice(0, 20)) fault(`${base}${error.instancePath}`, error.message ?? `fails "${error.keyword}"`);
    return refused();
  }
  try {
    return { problems, validator: compileSchema(schema) };
  } catch (error) {
    if (error instanceof MissingRefError) {
      const [at, ref] = refs.find(([, ref]) => error.missingRef.endsWith(ref)) ?? refs.find(([, ref]) => !ref.startsWith("#")) ?? [base, error.missingRef];
      fault(at, `"${ref}" is not in this schema: only references within the schema are followed, never fetched`);
    } else fault(base, `does not compile: ${error instanceof Error ? error.message : String(error)}`);
    return refused();
  }
}

/** The example's faults against a compiled schema, each with its pointer under `base` (`/example`). */
export function exampleProblems(validator: SchemaValidator, example: unknown, base = "/example"): FieldError[] {
  return (validator.check(example) ?? []).map((v) => ({ path: "example", pointer: `${base}${v.pointer}`, message: v.message }));
}

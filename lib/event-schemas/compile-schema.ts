import Ajv2020, { type ErrorObject, type Options, type ValidateFunction } from "ajv/dist/2020";
import { RE2JS } from "re2js";

/** A payload's faults against its event type's schema, each where it is: an RFC 6901 pointer into the payload ("" for the whole). */
export type SchemaViolation = { pointer: string; message: string };

/** At most this many faults are reported for one payload: enough to fix it, never a payload-sized answer. */
export const MAX_VIOLATIONS = 20;

/**
 * JSON Schema's `pattern` and `patternProperties` run on customers' payloads, so they run on RE2
 * (re2js): matching in time linear in the string, whatever the pattern — no backtracking to
 * exploit (ADR 0041). A pattern RE2 cannot read (backreferences, lookaround) fails to compile, and
 * the schema is refused when it is saved. The engine answers to Ajv's RegExpEngine: a function
 * from the pattern to something with `test`; `code` would name it in standalone code, unused here.
 */
const re2 = Object.assign((pattern: string) => RE2JS.compile(pattern), { code: "re2js" });

/**
 * Ajv for JSON Schema 2020-12, as every schema here is compiled:
 * - unknown keywords are annotations, as the specification has them (a schema from Svix or any
 *   other tool keeps its `x-…`), and nothing is ever logged;
 * - `format` is an annotation, the 2020-12 default (format-annotation vocabulary): no format's own
 *   regex runs on a payload;
 * - a referenced schema is inlined only when it is small (8 keywords), so a small schema full of
 *   `$ref`s to one large definition cannot compile into code many times its size.
 * No `loadSchema`: a `$ref` outside the schema fails to compile instead of being fetched.
 */
function ajvFor(allErrors: boolean): Ajv2020 {
  const options: Options = { strict: false, allErrors, validateFormats: false, logger: false, inlineRefs: 8, code: { regExp: re2 } };
  return new Ajv2020(options);
}

/** Ajv's error as a violation: where in the payload, and what is wrong there in words. */
function violationOf(error: ErrorObject): SchemaViolation {
  const params = error.params as Record<string, unknown>;
  // `required` and `additionalProperties` are reported at the object; name the property too.
  const property = error.keyword === "required" ? params.missingProperty : error.keyword === "additionalProperties" ? params.additionalProperty : undefined;
  const message = error.message ?? `fails "${error.keyword}"`;
  return { pointer: error.instancePath, message: typeof property === "string" ? `${message}: "${property}"` : message };
}

/** A compiled schema: `check(payload)` answers null for a payload it accepts, else its violations. */
export type SchemaValidator = { check(payload: unknown): SchemaViolation[] | null };

/**
 * One schema compiled for payloads. The first check of any payload stops at its first fault (the
 * fast path every valid payload takes); only a payload found invalid is checked again by a
 * validator compiled — on first need — to collect every fault, of which the first MAX_VIOLATIONS are
 * kept. A fresh Ajv instance per schema: two schemas with the same `$id` never meet, and nothing
 * outlives the validator. Throws what Ajv throws for a schema it cannot compile (checkSchema first).
 */
export function compileSchema(schema: Record<string, unknown>): SchemaValidator {
  const first = ajvFor(false).compile(schema);
  let every: ValidateFunction | null = null;
  return {
    check(payload) {
      if (first(payload)) return null;
      every ??= ajvFor(true).compile(schema);
      every(payload);
      return (every.errors ?? first.errors ?? []).slice(0, MAX_VIOLATIONS).map(violationOf);
    },
  };
}

/** The meta-schema's faults in `schema` (null when it is a valid 2020-12 schema), and the compiler itself, for checkSchema. */
export function metaSchemaErrors(schema: Record<string, unknown>): ErrorObject[] | null {
  const ajv = ajvFor(true);
  return ajv.validateSchema(schema) ? null : (ajv.errors ?? []);
}

import type { eventTypes } from "../db/schema";
import { checkSchema, exampleProblems, InvalidExampleError, InvalidSchemaError } from "../event-schemas";
import type { EventTypeChanges } from "./schemas";

type Current = Pick<typeof eventTypes.$inferSelect, "schema" | "example" | "enforcement">;

/** JSON as jsonb compares it: objects by their keys, whatever order they were written in. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
  );
}
const sameJson = (a: unknown, b: unknown) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));

/**
 * What a write does to an event type's schema (`current` null: a new event type): whether the
 * schema changes — a new version — and the checks it must pass first. A schema being saved must
 * pass checkSchema (422 `invalid_schema`, with pointers); an example, whenever it or the schema is
 * saved, must match the schema (422 `invalid_example`); and enforcement cannot be turned on over a
 * schema that does not compile. A schema equal to the current one (as jsonb compares) is no change.
 */
export function schemaChange(current: Current | null, input: Pick<EventTypeChanges, "schema" | "example" | "enforcement">): { changed: boolean } {
  const changed = input.schema !== undefined && !sameJson(input.schema ?? null, current?.schema ?? null);
  const schema = input.schema !== undefined ? (input.schema ?? null) : (current?.schema ?? null);
  const example = input.example !== undefined ? (input.example ?? null) : (current?.example ?? null);
  const enforcing = input.enforcement !== undefined && input.enforcement !== "off";
  if (schema && (changed || (input.example !== undefined && example !== null) || enforcing)) {
    const { problems, validator } = checkSchema(schema);
    if (!validator) throw new InvalidSchemaError(problems);
    if (example !== null) {
      const faults = exampleProblems(validator, example);
      if (faults.length) throw new InvalidExampleError(faults);
    }
  }
  return { changed };
}

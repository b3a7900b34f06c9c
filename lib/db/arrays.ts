/**
 * Arrays for `unnest(...)` go over the wire as text[] and are cast in SQL: postgres.js infers array
 * types only for strings, and nulls and Dates need an explicit text form anyway.
 */
export function asTextArray(values: (string | number | boolean | Date | null)[]): string[] {
  return values.map((v) => (v === null ? null : v instanceof Date ? v.toISOString() : String(v))) as string[];
}

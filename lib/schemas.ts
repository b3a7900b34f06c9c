import { z } from "zod";

// Postgres text and jsonb refuse U+0000 outright; an unpaired surrogate cannot be encoded as
// UTF-8 at all (the driver would store U+FFFD instead, and jsonb refuses its \u escape). With the
// `u` flag a well-formed pair is one code point, so \p{Cs} matches only the unpaired ones.
const UNSTORABLE = /\u0000|\p{Cs}/u;
const MESSAGE = "must not contain U+0000 or an unpaired surrogate";

export function isStorableText(value: string): boolean {
  return !UNSTORABLE.test(value);
}

/**
 * Every free-form string a client sends, so such input is a 4xx naming the field instead of a
 * failed write. Chain limits on it as on z.string(): `Text.trim().min(1).max(256)`.
 */
export const Text = z.string().refine(isStorableText, MESSAGE);

function findUnstorable(value: unknown, path: (string | number)[], found: (string | number)[][]): void {
  if (typeof value === "string") {
    if (!isStorableText(value)) found.push(path);
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => findUnstorable(item, [...path, i], found));
  } else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (!isStorableText(key)) found.push([...path, key]);
      else findUnstorable(item, [...path, key], found);
    }
  }
}

/** Any JSON value stored as jsonb: its keys and strings at any depth are storable. */
export function storableJson<S extends z.ZodType>(schema: S) {
  return schema.superRefine((value, ctx) => {
    const found: (string | number)[][] = [];
    findUnstorable(value, [], found);
    for (const path of found) ctx.addIssue({ code: "custom", message: MESSAGE, path });
  });
}

/** A JSON object stored as jsonb (metadata, a schema). */
export function jsonObject(keys: z.ZodString = z.string()) {
  return storableJson(z.record(keys, z.unknown()));
}

/**
 * An RFC 3339 time with its offset, as a Date. Years 0001–9999 only: Postgres has no year 0, and
 * a time outside them is no row's.
 */
export const IsoDate = z.iso
  .datetime({ offset: true })
  .transform((v) => new Date(v))
  .refine((d) => d.getUTCFullYear() >= 1 && d.getUTCFullYear() <= 9999, "must be a time between the years 0001 and 9999");

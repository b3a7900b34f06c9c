import * as siftModule from "sift";
import type { Filter } from "./check-filter";

// sift ships CommonJS (`main`) and ESM (`module`): Node's ESM loader (the worker, tsx, vitest) sees
// the CommonJS exports only under `default`, a bundler that takes `module` (next build) sees them named.
const sift: typeof siftModule = "createQueryTester" in siftModule ? siftModule : (siftModule as unknown as { default: typeof siftModule }).default;
// Only these: sift's others include $where, which runs code, and $regex. checkFilter refuses any
// other operator before a filter is stored; this list keeps a filter that bypassed it harmless.
const { createQueryTester, $eq, $ne, $gt, $gte, $lt, $lte, $in, $nin, $exists, $and, $or, $not } = sift;
const operations = { $eq, $ne, $gt, $gte, $lt, $lte, $in, $nin, $exists, $and, $or, $not };

/** A compiled filter: whether a message's document passes it. */
export type FilterTester = (document: FilterDocument) => boolean;
type Tester = (document: unknown) => boolean;

/** `$neq` (Convoy's and Hookdeck's spelling) is sift's `$ne`; everything else is as written. */
function toSift(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toSift);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key === "$neq" ? "$ne" : key, toSift(item)]));
}

/** Compiled testers by the filter's JSON text, as the database returns it, so each is compiled once per process. */
const compiled = new Map<string, Tester>();
const MAX_COMPILED = 1000;

function testerOf(filterJson: string): Tester {
  let tester = compiled.get(filterJson);
  if (!tester) {
    tester = createQueryTester(toSift(JSON.parse(filterJson)) as Filter, { operations }) as Tester;
    // Oldest first out: a Map iterates in insertion order.
    if (compiled.size >= MAX_COMPILED) compiled.delete(compiled.keys().next().value!);
    compiled.set(filterJson, tester);
  }
  return tester;
}

/** What a filter reads of a message: a document made once per message, whatever the number of filters it meets. */
export type FilterDocument = { readonly __filterDocument: true };

/**
 * The payload, with the message's event type as the top-level field `event_type` (over a payload's
 * own field of that name); a payload that is not an object reads as an empty one.
 */
export function filterDocument(message: { eventType: string; payload: unknown }): FilterDocument {
  const payload = typeof message.payload === "object" && message.payload !== null && !Array.isArray(message.payload) ? message.payload : {};
  return { ...payload, event_type: message.eventType } as unknown as FilterDocument;
}

/** Whether a message's document passes a filter. `filterJson`: the filter as stored (endpoints.filter as text). */
export function matchesFilter(filterJson: string, document: FilterDocument): boolean {
  return testerOf(filterJson)(document);
}

/** A stored filter compiled (once per distinct text, per process). Throws when the text is not a filter this evaluator runs. */
export function compileFilter(filterJson: string): FilterTester {
  return testerOf(filterJson);
}

/** A payload as the filter reads it: stored bytes that are not JSON an object can be read from (never, from ingest) read as none. */
export function parsePayload(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

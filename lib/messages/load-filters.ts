import type { SqlOrTx } from "../db/client";
import { compileFilter, type FilterDocument, type FilterTester } from "../filters";
import { logger } from "../logger";
import type { TargetRow } from "./find-targets";

type Compiled = { version: number; tester: FilterTester };

/**
 * Each endpoint's compiled filter, by its version, per process: the target query returns a filter's
 * version rather than its text (about 200 bytes made and decoded per target row, most of a batch's
 * filter cost: bench/results/2026-12-06-a4-payload-filters.md), and the text is read once per
 * change. Bounded; oldest first out.
 */
const byEndpoint = new Map<string, Compiled>();
const MAX_ENDPOINTS = 10_000;

/** Whether a target endpoint's filter lets a message through; an endpoint without one lets everything through. */
export type FilterLookup = (endpointId: string, document: FilterDocument) => boolean;

/**
 * The filters the targets' rows name, compiled: those not yet held at their version are read, in
 * one query. A stored filter that cannot be run (written past the checks, or by an older release
 * with other rules) lets every message through and says so in the log: a delivery too many is
 * visible and recoverable, one never made is not.
 */
export async function loadFilters(sql: SqlOrTx, targets: TargetRow[]): Promise<FilterLookup> {
  const stale = new Set<string>();
  for (const t of targets) {
    if (t.filter_version === null || !t.endpoint_id) continue;
    const held = byEndpoint.get(t.endpoint_id);
    if (!held || held.version < t.filter_version) stale.add(t.endpoint_id);
  }
  if (stale.size > 0) {
    const rows = await sql<{ id: string; filter_version: number; filter: string | null }[]>`
      select id, filter_version, filter::text as filter from endpoints where id = any(${[...stale]}::text[])`;
    for (const row of rows) {
      if (byEndpoint.size >= MAX_ENDPOINTS) byEndpoint.delete(byEndpoint.keys().next().value!);
      byEndpoint.set(row.id, { version: row.filter_version, tester: row.filter === null ? passAll : guarded(row.id, row.filter) });
    }
  }
  return (endpointId, document) => (byEndpoint.get(endpointId)?.tester ?? passAll)(document);
}

const passAll: FilterTester = () => true;

function guarded(endpointId: string, filterJson: string): FilterTester {
  const fault = (error: unknown) =>
    logger.warn("payload filter not applied; the message is delivered", { endpoint_id: endpointId, error: error instanceof Error ? error.message : String(error) });
  let tester: FilterTester;
  try {
    tester = compileFilter(filterJson);
  } catch (error) {
    fault(error);
    return passAll;
  }
  return (document) => {
    try {
      return tester(document);
    } catch (error) {
      fault(error);
      return true;
    }
  };
}

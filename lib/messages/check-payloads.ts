import type { SqlOrTx } from "../db/client";
import { PayloadInvalidError, type SchemaViolation } from "../event-schemas";
import { payloadChecks } from "../event-types";
import type { IngestItem, Refusal } from "./ingest-types";
import type { SizedPayloads } from "./size-payloads";

/** What a message keeps of its check: the schema version, and under `warn` where it broke it (null: it did not). */
export type SchemaMark = { version: number; violations: SchemaViolation[] | null };

export type CheckedPayloads = {
  /** The items still going on, as size-payloads gave them less the refused. */
  sized: SizedPayloads;
  refused: Refusal[];
  /** By the item's place in the call: each item that was checked. */
  marks: Map<number, SchemaMark>;
};

/**
 * The stage after size-payloads: each payload checked against its event type's schema where that
 * event type enforces one (lib/event-types/payload-checks.ts: read at most every 500 ms per
 * process, compiled once per version). Under `reject` an invalid item is refused alone, 422
 * `payload_invalid` with each fault's JSON pointer; under `warn` it goes on, marked with its
 * faults; every checked item keeps the version it was checked against. Nothing is read for a
 * call whose event types this process read within the last 500 ms.
 */
export async function checkPayloads(sql: SqlOrTx, items: IngestItem[], sized: SizedPayloads): Promise<CheckedPayloads> {
  const marks = new Map<number, SchemaMark>();
  if (sized.sized.length === 0) return { sized, refused: [], marks };
  const checks = await payloadChecks(
    sql,
    sized.sized.map((index) => items[index]!.input.event_type),
  );
  const refused: Refusal[] = [];
  const going: number[] = [];
  for (const index of sized.sized) {
    const check = checks.get(items[index]!.input.event_type);
    if (!check) {
      going.push(index);
      continue;
    }
    const violations = check.validator.check(items[index]!.input.payload);
    if (violations && check.enforcement === "reject") {
      refused.push({ index, error: new PayloadInvalidError(check.version, violations) });
      continue;
    }
    marks.set(index, { version: check.version, violations });
    going.push(index);
  }
  return { sized: refused.length ? { ...sized, sized: going } : sized, refused, marks };
}

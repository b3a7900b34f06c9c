import type { SqlOrTx } from "../db/client";
import type { SchemaEnforcement } from "../db/schema/enums";
import { compileSchema, type SchemaValidator } from "../event-schemas";
import { logger } from "../logger";

/** What ingest does with a message of one event type: the schema version it checks against, how, and the compiled schema. */
export type PayloadCheck = { version: number; enforcement: Exclude<SchemaEnforcement, "off">; validator: SchemaValidator };

/** How long this process trusts what it read of an event type: a change made by another process reaches this one within it (plus one read). */
export const PAYLOAD_CHECK_TTL_MS = 500;
/** Event type names held at once; messages may name types that do not exist, so the names a client sends must not grow it without bound. */
const MAX_ENTRIES = 10_000;

/**
 * A schema version compiled here, by the event type's id (so one deleted and made again is never
 * taken for the old one) and version: once per (event type, version) per process. `validator` is
 * null for a version with no schema, or one that did not compile.
 */
type Compiled = { id: string; version: number; validator: SchemaValidator | null };

type Entry = {
  enforcement: SchemaEnforcement;
  /** The event type's current version, compiled; null when there is no such event type or enforcement has never been on. */
  compiled: Compiled | null;
  readAt: number;
};

type State = { entries: Map<string, Entry>; generation: number };

// On globalThis: Next.js may evaluate this module once per route bundle, and the ingest route and
// the event-type routes must share one cache, so that a change clears what ingest reads at once.
const holder = globalThis as unknown as { __webhookAdminPayloadChecks?: State };
const state = (holder.__webhookAdminPayloadChecks ??= { entries: new Map(), generation: 0 });

type Row = { name: string; id: string; schema_version: number; enforcement: SchemaEnforcement; schema: Record<string, unknown> | null };

/**
 * The check each of these event types asks of its messages (none: enforcement off, no schema, or
 * no such event type), from this process's cache. Entries older than PAYLOAD_CHECK_TTL_MS are read
 * again, all in one query, and only then: a call whose entries are fresh makes no round trip. The
 * schema itself is read only for a version this process has not compiled.
 */
export async function payloadChecks(sql: SqlOrTx, names: string[]): Promise<Map<string, PayloadCheck | null>> {
  const now = performance.now();
  const stale = [...new Set(names)].filter((name) => {
    const entry = state.entries.get(name);
    return !entry || now - entry.readAt >= PAYLOAD_CHECK_TTL_MS;
  });
  if (stale.length > 0) await refresh(sql, stale);
  const checks = new Map<string, PayloadCheck | null>();
  for (const name of names) {
    const entry = state.entries.get(name);
    const validator = entry?.compiled?.validator;
    checks.set(name, validator && entry.enforcement !== "off" ? { version: entry.compiled!.version, enforcement: entry.enforcement, validator } : null);
  }
  return checks;
}

async function refresh(sql: SqlOrTx, names: string[]): Promise<void> {
  const generation = state.generation;
  const known = names.map((name) => state.entries.get(name)?.compiled ?? null);
  // The schema comes back only where enforcement is on and the version is not the one compiled here.
  const rows = await sql<Row[]>`
    select e.name, e.id, e.schema_version, e.enforcement,
      case when e.enforcement <> 'off' and (e.id, e.schema_version) is distinct from (k.id, k.version) then e.schema end as schema
    from unnest(${names}::text[], ${known.map((c) => c?.id ?? null)}::text[], ${known.map((c) => c?.version ?? null)}::int[]) as k(name, id, version)
    join event_types e on e.name = k.name`;
  // A change made by this process while the read was out (forgetPayloadCheck) wins over what it read.
  if (state.generation !== generation) return;
  const readAt = performance.now();
  const found = new Map(rows.map((row) => [row.name, row]));
  for (const [i, name] of names.entries()) {
    const row = found.get(name);
    if (!row) {
      set(name, { enforcement: "off", compiled: null, readAt });
      continue;
    }
    const before = known[i];
    const current = before && before.id === row.id && before.version === row.schema_version;
    // Off: what was compiled stays for when it is on again, but nothing new is compiled.
    const compiledNow = current || row.enforcement === "off" ? before : { id: row.id, version: row.schema_version, validator: row.schema ? compile(row) : null };
    set(name, { enforcement: row.enforcement, compiled: compiledNow, readAt });
  }
}

/**
 * A stored schema compiled. Every schema saved since versions exist was checked when it was saved;
 * one that still does not compile (written before, or by an older release during an upgrade) is
 * not enforced, and said so in the log, rather than refusing every message of its type.
 */
function compile(row: Row): SchemaValidator | null {
  try {
    return compileSchema(row.schema!);
  } catch (error) {
    logger.warn("event type schema does not compile; not enforced", { event_type: row.name, schema_version: row.schema_version, error: String(error) });
    return null;
  }
}

function set(name: string, entry: Entry) {
  state.entries.delete(name);
  if (state.entries.size >= MAX_ENTRIES) state.entries.delete(state.entries.keys().next().value!);
  state.entries.set(name, entry);
}

/** Called by the verbs that change an event type: this process reads it again on its next message, not up to PAYLOAD_CHECK_TTL_MS later. */
export function forgetPayloadCheck(name: string): void {
  state.generation += 1;
  state.entries.delete(name);
}

import { sha256Hex } from "../crypto/encryption";
import { NotFoundError } from "../errors";
import { filterDocument, type FilterDocument } from "../filters";
import { newId } from "../ids";
import { lineKeyOf } from "../ordering";
import type { TargetRow } from "./find-targets";
import type { IngestItem, PreparedMessage, Refusal } from "./ingest-types";
import type { FilterLookup } from "./load-filters";
import type { SizedPayloads } from "./size-payloads";

/** The messages of one call that are ready to be written, and their time. */
export type PreparedBatch = {
  /** The database's clock when the targets were read: every message's created_at. */
  now: Date;
  /** When their deliveries are first due: `now` plus the schedule's first delay. */
  firstAttemptAt: Date;
  messages: PreparedMessage[];
};

/**
 * Each sized item and its targets (findTargets' rows, in the order of `sized.sized`) made into the
 * message it will be: its id and answer, its labels without repeats, the target endpoints whose
 * payload filters let it through (and the ones that did not), its line at each ordered one and,
 * when it has a key, the hash a replay must match. An item whose consumer was not found is refused
 * alone. No batch when none is left to write.
 */
export function prepareMessages(
  items: IngestItem[],
  { payloads, sized }: SizedPayloads,
  targets: TargetRow[],
  filters: FilterLookup,
  firstDelay: number,
): { batch: PreparedBatch | null; refused: Refusal[] } {
  const now = targets[0]!.now;
  type Found = { consumerId: string | null; endpointIds: string[]; lineKeys: (string | null)[] | null; filteredEndpointIds: string[] | null; polled: boolean; document?: FilterDocument };
  const found: Found[] = new Array(sized.length);
  for (const t of targets) {
    const entry = (found[t.ord - 1] ??= { consumerId: t.consumer_id, endpointIds: [], lineKeys: null, filteredEndpointIds: null, polled: false });
    if (!t.endpoint_id) continue;
    // Read by its consumer, its payload filter applied at the poll (lib/polling, ADR 0048): no delivery.
    if (t.polling) {
      entry.polled = true;
      continue;
    }
    const { input } = items[sized[t.ord - 1]!]!;
    if (t.filter_version !== null) {
      entry.document ??= filterDocument({ eventType: input.event_type, payload: input.payload });
      if (!filters(t.endpoint_id, entry.document)) {
        (entry.filteredEndpointIds ??= []).push(t.endpoint_id);
        continue;
      }
    }
    if (t.line_path !== null) (entry.lineKeys ??= new Array<string | null>(entry.endpointIds.length).fill(null)).push(lineKeyOf(input.payload, t.line_path || null));
    else entry.lineKeys?.push(null);
    entry.endpointIds.push(t.endpoint_id);
  }

  const messages: PreparedMessage[] = [];
  const refused: Refusal[] = [];
  sized.forEach((index, n) => {
    const { input, idempotencyKey } = items[index]!;
    const { consumerId, endpointIds, lineKeys, filteredEndpointIds, polled } = found[n]!;
    if (!consumerId) {
      refused.push({ index, error: new NotFoundError("consumer", input.consumer) });
      return;
    }
    const payload = payloads[index]!;
    const channels = input.channels ? [...new Set(input.channels)] : null;
    const tags = input.tags ? [...new Set(input.tags)] : null;
    messages.push({
      index,
      key: idempotencyKey,
      payload,
      channels,
      tags,
      endpointIds,
      lineKeys,
      polled,
      filteredEndpointIds,
      // Channels and tags count only when given, so a key first used before they existed still replays.
      requestHash:
        idempotencyKey === undefined
          ? undefined
          : sha256Hex(JSON.stringify([consumerId, input.event_type, input.event_id ?? null, payload, ...(channels || tags ? [channels, tags] : [])])),
      message: {
        id: newId("message", now.getTime()),
        consumer_id: consumerId,
        event_type: input.event_type,
        event_id: input.event_id ?? null,
        created_at: now.toISOString(),
        deliveries: endpointIds.length,
      },
    });
  });
  if (messages.length === 0) return { batch: null, refused };
  return { batch: { now, firstAttemptAt: new Date(now.getTime() + firstDelay), messages }, refused };
}

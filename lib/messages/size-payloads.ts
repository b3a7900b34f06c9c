import { PayloadTooLargeError } from "../errors";
import type { IngestItem, Refusal } from "./ingest-types";

/** Each item's payload as it is stored and sent, and which items fit. */
export type SizedPayloads = {
  /** By the item's place in the call; a refused item's too. */
  payloads: string[];
  /** The places of the items whose payload fits, in order. */
  sized: number[];
  refused: Refusal[];
};

/**
 * The first stage of ingest: each payload serialized once — the exact bytes every attempt sends —
 * and an item whose payload is over `maxBytes` refused alone, before anything is read for it.
 */
export function sizePayloads(items: IngestItem[], maxBytes: number): SizedPayloads {
  const payloads = items.map((item) => JSON.stringify(item.input.payload));
  const sized: number[] = [];
  const refused: Refusal[] = [];
  payloads.forEach((payload, index) => {
    if (Buffer.byteLength(payload) > maxBytes) refused.push({ index, error: new PayloadTooLargeError(maxBytes) });
    else sized.push(index);
  });
  return { payloads, sized, refused };
}

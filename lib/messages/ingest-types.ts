import type { AppError } from "../errors";
import type { CreateMessageInput, MessageAccepted } from "./schemas";

/** One message to ingest, with the key that makes sending it again safe. */
export type IngestItem = { input: CreateMessageInput; idempotencyKey?: string };

export type CreateMessageResult = { message: MessageAccepted; replayed: boolean };

/** Each item's outcome, in order: accepted (or replayed), or the error that refused it alone. */
export type IngestResult = CreateMessageResult | { error: AppError };

/** An item a stage of ingest refused, by its place in the call; the others go on without it. */
export type Refusal = { index: number; error: AppError };

/** An item that passed the checks made before the transaction, ready to be written. */
export type PreparedMessage = {
  /** Its place in the call. */
  index: number;
  key?: string;
  message: MessageAccepted;
  payload: string;
  channels: string[] | null;
  tags: string[] | null;
  endpointIds: string[];
  /** Beside endpointIds: at an ordered endpoint, the line it waits in (lib/ordering); null elsewhere. null: no ordered target. */
  lineKeys: (string | null)[] | null;
  /** It goes to a polling endpoint, which takes no delivery: its write wakes the long-polls (lib/polling). */
  polled: boolean;
  /** The target endpoints whose payload filter refused it: no delivery there. null: none. */
  filteredEndpointIds: string[] | null;
  /** What a replay of its key must match; only an item with a key has one. */
  requestHash?: string;
};

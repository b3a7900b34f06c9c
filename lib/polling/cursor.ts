import { AppError } from "../errors";
import { ID_PREFIXES, idBoundAt, idTime } from "../ids";

/**
 * A position in a polling endpoint's messages: the last message id given, or a bound made from a
 * time (`msg_` and the ten characters of a millisecond) before the first message to give. Every
 * message after it in id order — which is creation order (lib/ids.ts) — comes next.
 */
export type Position = string;

const POSITION = /^msg_[0-9a-hjkmnp-tv-z]{10}(?:[0-9a-hjkmnp-tv-z]{16})?$/;

/** A cursor the client cannot read anything into: base64url of a version and the position. */
export function encodeCursor(position: Position): string {
  return Buffer.from(`1:${position}`).toString("base64url");
}

export class InvalidCursorError extends AppError {
  constructor() {
    super(400, "invalid_cursor", "Invalid cursor", "The cursor is not one a poll of this API answered: send back the `cursor` of the previous page, or none to start.");
  }
}

export class CursorExpiredError extends AppError {
  constructor(retention: string) {
    super(410, "cursor_expired", "Cursor expired", `The cursor points before the messages still kept (RETENTION_PERIOD, ${retention}): start again without a cursor, or from a newer one.`);
  }
}

/** The position a cursor names; InvalidCursorError (400) for text no poll answered. */
export function decodeCursor(cursor: string): Position {
  if (cursor.length > 100 || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw new InvalidCursorError();
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  const position = text.startsWith("1:") ? text.slice(2) : "";
  if (!POSITION.test(position)) throw new InvalidCursorError();
  return position;
}

/** The position just before every message made at `ms` or later. */
export function positionAt(ms: number): Position {
  return idBoundAt(ID_PREFIXES.message, ms);
}

/** The millisecond a position stands at. */
export const positionTime = (position: Position): number => idTime(position);

/** A whole message id, not a bound: what `position` in poll-status names. */
export const isMessageId = (position: Position): boolean => position.length > 14;

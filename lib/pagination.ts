import { z } from "zod";
import { ValidationError } from "./errors";

export type Cursor = { createdAt: Date; id: string };

export const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(250).default(50),
  cursor: z.string().min(1).max(200).optional(),
});
export type PageQuery = z.infer<typeof PageQuery>;

// Rows are created now; a time past the year 9999 is not one this API wrote (and neither a JS
// Date's ISO string nor Postgres would read it back).
const MAX_CURSOR_TIME = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** Opaque to clients: base64url of `<epoch ms>.<id>` of the last row of the page. */
export function encodeCursor(row: Cursor): string {
  return Buffer.from(`${row.createdAt.getTime()}.${row.id}`).toString("base64url");
}

export function decodeCursor(cursor: string | undefined): Cursor | null {
  if (cursor === undefined) return null;
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  const match = /^(\d{1,15})\.([a-z]+_[0-9a-z]{26})$/.exec(text);
  if (!match || Number(match[1]) > MAX_CURSOR_TIME) {
    throw new ValidationError("The cursor is not one this API returned.", [{ path: "cursor", message: "invalid cursor" }], 400);
  }
  return { createdAt: new Date(Number(match[1])), id: match[2]! };
}

export type Page<T> = { data: T[]; next_cursor: string | null };

/** Rows were fetched with limit + 1: the extra row only says whether another page exists. */
export function toPage<R extends Cursor, T>(rows: R[], limit: number, shape: (row: R) => T): Page<T> {
  const data = rows.slice(0, limit);
  const last = data[data.length - 1];
  return { data: data.map(shape), next_cursor: rows.length > limit && last ? encodeCursor(last) : null };
}

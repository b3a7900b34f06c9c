import type { SqlOrTx } from "../db/client";
import type { QueueKind } from "../db/schema";

/** A line of an ordered endpoint: its queue rows of one kind that share the ordering key's value. */
export type Line = { endpointId: string; key: string };

/**
 * Before queue rows are added to lines, in the transaction that adds them: locks the lines
 * (lib/deliveries/lines.sql), and answers which already have rows — every new row of those is held;
 * of the others, the first new row is due — and `count` places in line, ascending, for the new rows
 * in the order they are to be attempted.
 */
async function openLines(tx: SqlOrTx, lines: Line[], kind: QueueKind, count: number): Promise<{ busy: Set<string>; seqs: number[] }> {
  const [opened] = await tx<{ busy: boolean[]; seqs: string[] }[]>`
    select busy, seqs from webhook_admin_open_lines(${lines.map((l) => l.endpointId)}::text[], ${lines.map((l) => l.key)}::text[], ${kind}::smallint, ${count}::int)`;
  return {
    busy: new Set(lines.filter((_, n) => opened!.busy[n]).map(lineName)),
    seqs: opened!.seqs.map(Number),
  };
}

/** One string per line, for sets and maps. */
export function lineName({ endpointId, key }: Line): string {
  return `${endpointId}\u0000${key}`;
}

/** An endpoint's queue rows of one kind, each given its line, in the order they are to be attempted: which are held, and their places. */
export async function placeInLines<T extends Line>(tx: SqlOrTx, rows: T[], kind: QueueKind): Promise<(T & { seq: number; held: boolean })[]> {
  if (rows.length === 0) return [];
  const lines = [...new Map(rows.map((row) => [lineName(row), { endpointId: row.endpointId, key: row.key }])).values()];
  const { busy, seqs } = await openLines(tx, lines, kind, rows.length);
  const started = new Set<string>();
  return rows.map((row, n) => {
    const name = lineName(row);
    const held = busy.has(name) || started.has(name);
    started.add(name);
    return { ...row, seq: seqs[n]!, held };
  });
}

/**
 * The rows among `ids` that exist, by id: `read` looks up the distinct ids (nulls left out) by
 * primary key, once for a whole page another list already read (and scoped), so the list names what
 * its rows refer to without a join that could change its plan. No ids, no query.
 */
export async function rowsById<R extends { id: string }>(ids: Iterable<string | null | undefined>, read: (ids: string[]) => Promise<R[]>): Promise<Map<string, R>> {
  const wanted = [...new Set([...ids].filter((id): id is string => !!id))];
  if (wanted.length === 0) return new Map();
  return new Map((await read(wanted)).map((row) => [row.id, row]));
}

import { z } from "zod";
import type { Operation } from "./operation";

/** The list envelope the document describes for `list: true` (./render.ts): `{data: [item…], next_cursor}`. */
const envelopes = new WeakMap<z.ZodType, z.ZodType>();
function listOf(item: z.ZodType): z.ZodType {
  let envelope = envelopes.get(item);
  if (!envelope) envelopes.set(item, (envelope = z.object({ data: z.array(item), next_cursor: z.string().nullable() })));
  return envelope;
}

/**
 * What an operation's answer of this status must parse with: its schema, in the list envelope for
 * a list; null where the operation documents the status with no schema (a 204, `{}`); undefined
 * where it does not document the status at all.
 */
export function documentedAnswer(doc: Pick<Operation, "success" | "also">, status: number): z.ZodType | null | undefined {
  if (doc.success.status === status) {
    const { schema, list } = doc.success;
    return schema ? (list ? listOf(schema) : schema) : null;
  }
  const other = doc.also?.find((answer) => answer.status === status);
  return other ? other.schema : undefined;
}

import { and, eq, inArray, isNull } from "drizzle-orm";
import type { Ctx } from "../context";
import { operators } from "../db/schema";
import { rowsById } from "../db/by-id";
import { selectPage } from "../db/keyset";
import { toPage, type PageQuery } from "../pagination";
import { toOperator } from "./schemas";

export async function listOperators(ctx: Ctx, query: PageQuery) {
  const rows = await selectPage(ctx.db, operators, query);
  return toPage(rows, query.limit, toOperator);
}

/** The operator a session names, read fresh on every request: a removed or disabled operator or a changed role takes effect at once. */
export async function findOperator(ctx: Ctx, id: string) {
  const { db } = ctx;
  const [row] = await db.select().from(operators).where(and(eq(operators.id, id), isNull(operators.disabledAt))).limit(1);
  return row ? toOperator(row) : null;
}

/** The operator who may sign in (not disabled) linked to an identity provider's account. */
export async function findOperatorByOidcSubject(ctx: Ctx, issuer: string, subject: string) {
  const { db } = ctx;
  const link = and(eq(operators.oidcIssuer, issuer), eq(operators.oidcSubject, subject), isNull(operators.disabledAt));
  const [row] = await db.select().from(operators).where(link).limit(1);
  return row ? toOperator(row) : null;
}

/** The operators among `ids` that still exist, by id, with their emails (for the names other lists show). */
export function operatorEmails(ctx: Ctx, ids: Iterable<string | null | undefined>): Promise<Map<string, { id: string; email: string }>> {
  return rowsById(ids, (wanted) => ctx.db.select({ id: operators.id, email: operators.email }).from(operators).where(inArray(operators.id, wanted)));
}

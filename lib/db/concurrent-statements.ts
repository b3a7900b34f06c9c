/**
 * Statements a migration marks to run outside its transaction. drizzle's migrator (drizzle-orm
 * 0.45, pg-core/dialect.js `migrate`) runs every pending migration's statements inside ONE
 * transaction, where PostgreSQL refuses CREATE INDEX CONCURRENTLY (and DROP INDEX CONCURRENTLY).
 * A statement (between `--> statement-breakpoint`s) whose first line is `-- concurrently` is
 * taken out of that transaction and run by lib/db/migrate.ts after it commits, on its own, before
 * the migrations after its own (the pending ones go in steps). So it is re-runnable, it must be one of:
 *
 *   CREATE [UNIQUE] INDEX CONCURRENTLY IF NOT EXISTS "name" ON …
 *   DROP INDEX CONCURRENTLY IF EXISTS "name"
 *
 * (an index left INVALID by a build that failed or was cut off is dropped and built again).
 */
export const CONCURRENTLY_MARKER = "-- concurrently";

export type ConcurrentStatement = { kind: "create_index" | "drop_index"; schema: string; index: string; sql: string };

const IDENT = String.raw`(?:"((?:[^"]|"")+)"|([a-z_][a-z0-9_$]*))`;
const QUALIFIED = String.raw`(?:${IDENT}\.)?${IDENT}`;
const CREATE = new RegExp(String.raw`^create\s+(?:unique\s+)?index\s+concurrently\s+if\s+not\s+exists\s+${QUALIFIED}\s`, "i");
const DROP = new RegExp(String.raw`^drop\s+index\s+concurrently\s+if\s+exists\s+${QUALIFIED}\s*;?\s*$`, "i");

/** The statement's text without comment lines and surrounding blanks. */
export function stripComments(statement: string): string {
  return statement
    .split("\n")
    .filter((line) => !line.trim().startsWith("--"))
    .join("\n")
    .trim();
}

export function isMarkedConcurrent(statement: string): boolean {
  const first = statement.split("\n").find((line) => line.trim() !== "");
  return first?.trim().toLowerCase() === CONCURRENTLY_MARKER;
}

const unquote = (quoted: string | undefined, bare: string | undefined) => (quoted !== undefined ? quoted.replace(/""/g, '"') : bare!.toLowerCase());

/** Parses a marked statement; throws when it is not one of the two re-runnable forms. */
export function parseConcurrent(statement: string): ConcurrentStatement {
  const sql = stripComments(statement);
  for (const [kind, pattern] of [["create_index", CREATE], ["drop_index", DROP]] as const) {
    const match = pattern.exec(sql);
    if (!match) continue;
    const schema = match[1] !== undefined || match[2] !== undefined ? unquote(match[1], match[2]) : "public";
    return { kind, schema, index: unquote(match[3], match[4]), sql };
  }
  throw new Error(
    `a statement marked "${CONCURRENTLY_MARKER}" must be CREATE [UNIQUE] INDEX CONCURRENTLY IF NOT EXISTS "name" ON … or DROP INDEX CONCURRENTLY IF EXISTS "name", not: ${sql.slice(0, 120)}`,
  );
}

/** One migration's statements split into those for drizzle's transaction and those run after it. */
export function splitConcurrent(statements: string[]): { transactional: string[]; concurrent: ConcurrentStatement[] } {
  const transactional: string[] = [];
  const concurrent: ConcurrentStatement[] = [];
  for (const statement of statements) {
    if (isMarkedConcurrent(statement)) concurrent.push(parseConcurrent(statement));
    else transactional.push(statement);
  }
  return { transactional, concurrent };
}

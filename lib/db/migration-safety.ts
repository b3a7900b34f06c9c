/**
 * Online-migration rules for migrations added after the grandfathered ones: on a table that grows
 * with traffic, a migration must not take a lock that stops writes for the length of a scan or a
 * rewrite. Pure (SQL text in, problems out) so it is tested on sample SQL; run over drizzle/ by
 * scripts/check-migration-safety.ts in `npm run check`.
 */
import { isMarkedConcurrent, parseConcurrent, stripComments } from "./concurrent-statements";

/** The last migration written before these rules: it and those before it are not checked. */
export const LAST_GRANDFATHERED = 12;

/** Tables that grow with traffic (their time partitions, named `<table>_…`, too). */
export const GROWING_TABLES = [
  "messages",
  "deliveries",
  "attempts",
  "delivery_queue",
  "failed_deliveries",
  "alerts",
  "audit_events",
  "recovery_items",
  "attempt_stats",
];

/** A statement carrying this comment line was reviewed and is exempt, with the reason given after it. */
export const EXEMPT_MARKER = "-- migration-safety:";

export type Problem = { file: string; statement: string; message: string };

// Functions a column default may call without forcing a table rewrite (stable or immutable).
const NON_VOLATILE_DEFAULTS = new Set(["now", "current_timestamp", "current_date", "localtimestamp", "transaction_timestamp", "statement_timestamp"]);

const IDENT = String.raw`(?:"(?:[^"]|"")+"|[a-z_][a-z0-9_$]*)`;
const TABLE = String.raw`(?:${IDENT}\.)?(${IDENT})`;
const name = (ident: string) => (ident.startsWith('"') ? ident.slice(1, -1).replace(/""/g, '"') : ident.toLowerCase());

export function isGrowingTable(table: string): boolean {
  return GROWING_TABLES.some((t) => table === t || table.startsWith(`${t}_`));
}

/** Splits SQL on top-level semicolons (not inside quotes, dollar quotes or comments). */
export function splitStatements(sql: string): string[] {
  const out: string[] = [];
  let start = 0;
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    if (c === "'" || c === '"') {
      const end = sql.indexOf(c, i + 1);
      i = end < 0 ? sql.length : end + 1;
    } else if (c === "-" && sql[i + 1] === "-") {
      const end = sql.indexOf("\n", i);
      i = end < 0 ? sql.length : end + 1;
    } else if (c === "/" && sql[i + 1] === "*") {
      const end = sql.indexOf("*/", i + 2);
      i = end < 0 ? sql.length : end + 2;
    } else if (c === "$") {
      const tag = /^\$[A-Za-z_0-9]*\$/.exec(sql.slice(i))?.[0];
      if (tag) {
        const end = sql.indexOf(tag, i + tag.length);
        i = end < 0 ? sql.length : end + tag.length;
      } else i++;
    } else if (c === ";") {
      out.push(sql.slice(start, i + 1));
      start = i + 1;
      i++;
    } else i++;
  }
  out.push(sql.slice(start));
  return out.filter((s) => stripComments(s).replace(/;\s*$/, "").trim() !== "");
}

/** Splits an ALTER TABLE's actions on top-level commas. */
function splitActions(text: string): string[] {
  const actions: string[] = [];
  let depth = 0;
  let start = 0;
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === "," && depth === 0) {
      actions.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  actions.push(text.slice(start).trim());
  return actions;
}

function volatileDefault(columnDefinition: string): string | null {
  const lower = columnDefinition.toLowerCase();
  if (/\b(small|big)?serial\b/.test(lower)) return "a serial column (its default is nextval())";
  if (/\bgenerated\b[^]*\bas\s+identity\b/.test(lower)) return "an identity column";
  if (/\bgenerated\s+always\s+as\s*\([^]*\)\s*stored\b/.test(lower)) return "a stored generated column";
  const expression = /\bdefault\s+([^]*?)(?=\s+(?:not\s+null|null|constraint|check|references|unique|primary\s+key|collate)\b|$)/.exec(lower)?.[1];
  if (!expression) return null;
  for (const match of expression.matchAll(/(::\s*)?([a-z_][a-z0-9_.]*)\s*\(/g)) {
    if (match[1]) continue; // a cast's type modifier, numeric(10, 2)
    const fn = match[2]!.split(".").pop()!;
    if (!NON_VOLATILE_DEFAULTS.has(fn)) return `a default calling ${fn}(), which may be volatile`;
  }
  return null;
}

type Seen = {
  checks: Map<string, { table: string; column: string; valid: boolean }>;
  /** Tables this migration file creates: empty, so nothing on them waits. */
  createdHere: Set<string>;
};

function checkStatement(file: string, raw: string, seen: Seen, checked: boolean): Problem[] {
  const problems: Problem[] = [];
  const statement = stripComments(raw).replace(/;\s*$/, "").trim();
  const flat = statement.replace(/\s+/g, " ");
  const report = (message: string) => problems.push({ file, statement: flat.slice(0, 160), message });
  const exempt = raw.split("\n").some((line) => line.trim().toLowerCase().startsWith(EXEMPT_MARKER));

  // Remember CHECK (col IS NOT NULL) constraints and their validation, for SET NOT NULL later.
  const alter = new RegExp(String.raw`^alter\s+table\s+(?:if\s+exists\s+)?(?:only\s+)?${TABLE}\s+([^]*)$`, "i").exec(flat);
  if (alter) {
    const table = name(alter[1]!);
    for (const action of splitActions(alter[2]!)) {
      const check = new RegExp(String.raw`^add\s+constraint\s+(${IDENT})\s+check\s*\(+\s*(${IDENT})\s+is\s+not\s+null\s*\)+\s*(not\s+valid)?`, "i").exec(action);
      if (check) seen.checks.set(name(check[1]!), { table, column: name(check[2]!), valid: !check[3] });
      const validate = new RegExp(String.raw`^validate\s+constraint\s+(${IDENT})`, "i").exec(action);
      const known = validate && seen.checks.get(name(validate[1]!));
      if (known) known.valid = true;
    }
  }
  const created = new RegExp(String.raw`^create\s+(?:unlogged\s+)?table\s+(?:if\s+not\s+exists\s+)?${TABLE}`, "i").exec(flat);
  if (created) seen.createdHere.add(name(created[1]!));
  if (!checked) return [];
  const growing = (table: string) => isGrowingTable(table) && !seen.createdHere.has(table);

  if (isMarkedConcurrent(raw)) {
    try {
      parseConcurrent(raw);
    } catch (error) {
      report((error as Error).message);
    }
    return problems;
  }
  if (/\bconcurrently\b/i.test(flat)) {
    report("CONCURRENTLY cannot run inside drizzle's migration transaction: make it its own statement whose first line is `-- concurrently` (lib/db/concurrent-statements.ts)");
  }
  if (exempt) return problems;

  const index = new RegExp(String.raw`^create\s+(?:unique\s+)?index\s+(concurrently\s+)?(?:if\s+not\s+exists\s+)?(?:${IDENT}\s+)?on\s+(?:only\s+)?${TABLE}`, "i").exec(flat);
  if (index && !index[1] && growing(name(index[2]!))) {
    report(
      `creates an index on ${name(index[2]!)}, which grows with traffic, without CONCURRENTLY (writes would wait for the whole build): ` +
        "write `-- concurrently` then CREATE INDEX CONCURRENTLY IF NOT EXISTS … as a statement of its own",
    );
  }

  // ATTACH PARTITION checks the attached table's rows against its bound — a scan under an ACCESS
  // EXCLUSIVE lock — unless a validated CHECK already proves it; as DEFAULT it is checked against
  // the other partitions, of which a parent this file creates has none.
  const attach = new RegExp(String.raw`^alter\s+table\s+(?:if\s+exists\s+)?(?:only\s+)?${TABLE}\s+attach\s+partition\s+${TABLE}\s+(for\s+values|default)\b`, "i").exec(flat);
  if (attach && growing(name(attach[2]!))) {
    const [parent, part] = [name(attach[1]!), name(attach[2]!)];
    if (/^for/i.test(attach[3]!)) {
      report(
        `attaches ${part}, which grows with traffic, FOR VALUES: PostgreSQL scans it for rows outside the bound under an ACCESS EXCLUSIVE lock. ` +
          "Add a CHECK matching the bound NOT VALID and VALIDATE it online first (then mark this statement), or attach it as the DEFAULT partition of a table this migration creates",
      );
    } else if (!seen.createdHere.has(parent)) {
      report(`attaches ${part}, which grows with traffic, as the DEFAULT partition of ${parent}, which has other partitions: it is scanned for their rows under an ACCESS EXCLUSIVE lock`);
    }
  }

  if (alter && growing(name(alter[1]!))) {
    const table = name(alter[1]!);
    for (const action of splitActions(alter[2]!)) {
      const type = new RegExp(String.raw`^alter\s+(?:column\s+)?(${IDENT})\s+(?:set\s+data\s+)?type\b`, "i").exec(action);
      if (type) report(`changes the type of ${table}.${name(type[1]!)}, which rewrites the table under an exclusive lock: add a new column, backfill in batches, switch, then drop the old one`);
      const add = new RegExp(String.raw`^add\s+(?:column\s+)?(?:if\s+not\s+exists\s+)?(${IDENT})\s+([^]*)$`, "i").exec(action);
      if (add && !/^(constraint|primary|unique|foreign|check|exclude)$/i.test(add[1]!)) {
        const why = volatileDefault(add[2]!);
        if (why) report(`adds ${table}.${name(add[1]!)} with ${why}, which rewrites the table: add it without a default (or a constant one) and backfill in batches`);
      }
      if (/^add\s+(?:constraint\s+\S+\s+)?foreign\s+key\b/i.test(action) && !/\bnot\s+valid\b/i.test(action)) {
        report(`adds a foreign key to ${table} that is validated at once: the whole table is checked under a lock that stops writes. Add it NOT VALID (new rows are checked) and VALIDATE CONSTRAINT it later`);
      }
      const notNull = new RegExp(String.raw`^alter\s+(?:column\s+)?(${IDENT})\s+set\s+not\s+null\b`, "i").exec(action);
      if (notNull) {
        const column = name(notNull[1]!);
        const proof = [...seen.checks.values()].find((c) => c.table === table && c.column === column && c.valid);
        if (!proof) {
          report(
            `sets ${table}.${column} NOT NULL without a prior validated CHECK (${column} IS NOT NULL), so it scans the table under an exclusive lock: ` +
              "add the CHECK … NOT VALID, VALIDATE CONSTRAINT it in a later statement, then SET NOT NULL",
          );
        }
      }
    }
  }
  return problems;
}

/** A migration file's number (0013_name.sql → 13), or null for anything else. */
export function migrationNumber(file: string): number | null {
  const match = /^(\d{4})_[^/]*\.sql$/.exec(file);
  return match ? Number(match[1]) : null;
}

/**
 * Checks migrations (file name → SQL, in order). Files numbered after LAST_GRANDFATHERED are
 * checked; earlier ones are read only for the CHECK constraints they add.
 */
export function checkMigrations(files: { file: string; sql: string }[]): Problem[] {
  const seen: Seen = { checks: new Map(), createdHere: new Set() };
  const problems: Problem[] = [];
  for (const { file, sql } of files) {
    seen.createdHere.clear();
    const checked = (migrationNumber(file) ?? 0) > LAST_GRANDFATHERED;
    for (const chunk of sql.split("--> statement-breakpoint")) {
      // A marked chunk is one statement whatever its semicolons say.
      const statements = isMarkedConcurrent(chunk) ? [chunk] : splitStatements(chunk);
      for (const statement of statements) problems.push(...checkStatement(file, statement, seen, checked));
    }
  }
  return problems;
}

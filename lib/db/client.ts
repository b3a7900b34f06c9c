import { drizzle, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import type { PgTransaction } from "drizzle-orm/pg-core";
import type { PostgresJsQueryResultHKT } from "drizzle-orm/postgres-js";
import type { ExtractTablesWithRelations, Logger } from "drizzle-orm";
import postgres from "postgres";
import { failoverSocket } from "./hosts";
import * as schema from "./schema";

export type Sql = postgres.Sql;
/** The pool or a transaction of the raw client: helpers that issue one statement take either. */
export type SqlOrTx = postgres.Sql | postgres.TransactionSql;
export type SqlTx = postgres.TransactionSql;
export type DB = PostgresJsDatabase<typeof schema>;
export type Tx = PgTransaction<PostgresJsQueryResultHKT, typeof schema, ExtractTablesWithRelations<typeof schema>>;
/** Query helpers take either the pool or a transaction, so they compose inside one. */
export type Executor = DB | Tx;

type Clients = { url: string; sql: Sql; db: DB };

// Next.js dev reloads modules; keep one pool per process across reloads.
const holder = globalThis as unknown as { __webhookAdminDb?: Clients };
const readHolder = globalThis as unknown as { __webhookAdminReadDb?: Clients };

// jsonb and json parameters: a string is JSON text already (what drizzle sends), anything else is
// serialized here (what `sql.json(value)` sends). postgres.js alone would encode drizzle's text twice.
const jsonParameter = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

export function createSql(url: string, options: { max?: number; name?: string } = {}): Sql {
  // Several hosts (a failover pair): each connection goes to the one that takes writes (lib/db/hosts.ts).
  const failover = failoverSocket(url);
  const sql = postgres(failover?.url ?? url, {
    ...(failover ? { socket: failover.socket } : {}),
    max: options.max ?? 10,
    onnotice: () => {},
    // A dead server is noticed quickly and the pool reconnects on the next query.
    connect_timeout: 5,
    idle_timeout: 60,
    max_lifetime: 60 * 30,
    connection: { application_name: options.name ?? "webhook-admin" },
  });
  sql.options.serializers[114] = jsonParameter;
  sql.options.serializers[3802] = jsonParameter;
  return sql;
}

/**
 * drizzle over a postgres.js pool or transaction, sharing its connection. drizzle rewrites its
 * client's date parsers and serializers at construction, to pass strings through; it is handed a
 * look-alike with options of its own to rewrite (it reads them nowhere else), so the raw SQL of the
 * hot paths keeps reading `Date`s on the same connection (drizzle's own columns read either).
 */
export function ormOver(sql: SqlOrTx, options: { logger?: Logger } = {}): DB {
  const lookAlike = Object.create(sql, { options: { value: { parsers: {}, serializers: {} } } }) as Sql;
  return drizzle(lookAlike, { schema, logger: options.logger });
}

function databaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set: start the product with `npm start`, or set DATABASE_URL");
  return url;
}

function clients(): Clients {
  const url = databaseUrl();
  if (!holder.__webhookAdminDb || holder.__webhookAdminDb.url !== url) {
    const sql = createSql(url, { max: Number(process.env.DATABASE_POOL_SIZE ?? 10) });
    holder.__webhookAdminDb = { url, sql, db: ormOver(sql) };
  }
  return holder.__webhookAdminDb;
}

/**
 * The process-wide pool on DATABASE_URL, as drizzle. Only the process's edges (route wrappers,
 * worker tasks, scripts) reach for it, to build a ctx (lib/open-ctx.ts); verbs use `ctx.db`.
 */
export function getDb(): DB {
  return clients().db;
}

/** The same pool, as postgres.js, for the hot paths written in SQL. Edges only, as getDb. */
export function getSql(): Sql {
  return clients().sql;
}

/**
 * The pool on DATABASE_READ_URL (a streaming replica), as both dialects, or null when it is unset.
 * Edges only, as getDb: a ctx carries it as `replica`, for the reads that tolerate its lag.
 */
export function getReplica(): { sql: Sql; db: DB } | null {
  const url = process.env.DATABASE_READ_URL;
  if (!url) return null;
  if (!readHolder.__webhookAdminReadDb || readHolder.__webhookAdminReadDb.url !== url) {
    const sql = createSql(url, { max: Number(process.env.DATABASE_POOL_SIZE ?? 10), name: "webhook-admin-read" });
    readHolder.__webhookAdminReadDb = { url, sql, db: ormOver(sql) };
  }
  return readHolder.__webhookAdminReadDb;
}

export async function closeDb(): Promise<void> {
  const current = holder.__webhookAdminDb;
  const replica = readHolder.__webhookAdminReadDb;
  holder.__webhookAdminDb = undefined;
  readHolder.__webhookAdminReadDb = undefined;
  await Promise.all([current?.sql.end({ timeout: 5 }), replica?.sql.end({ timeout: 5 })]);
}

export { schema };

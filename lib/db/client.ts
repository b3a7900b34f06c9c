import { drizzle, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import type { PgTransaction } from "drizzle-orm/pg-core";
import type { PostgresJsQueryResultHKT } from "drizzle-orm/postgres-js";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import postgres from "postgres";
import * as schema from "./schema";

export type Sql = postgres.Sql;
/** The pool or a transaction of the raw client: helpers that issue one statement take either. */
export type SqlOrTx = postgres.Sql | postgres.TransactionSql;
export type DB = PostgresJsDatabase<typeof schema>;
export type Tx = PgTransaction<PostgresJsQueryResultHKT, typeof schema, ExtractTablesWithRelations<typeof schema>>;
/** Query helpers take either the pool or a transaction, so they compose inside one. */
export type Executor = DB | Tx;

// Two pools: drizzle rewires its client's date serializers and parsers to pass strings through, so
// the raw postgres.js client used by the hot paths must not be the one drizzle wraps.
type Clients = { url: string; sql: Sql; db: DB; drizzleSql: Sql };

// Next.js dev reloads modules; keep one pool per process across reloads.
const holder = globalThis as unknown as { __webhookAdminDb?: Clients };

export function createSql(url: string, options: { max?: number; name?: string } = {}): Sql {
  return postgres(url, {
    max: options.max ?? 10,
    onnotice: () => {},
    // A dead server is noticed quickly and the pool reconnects on the next query.
    connect_timeout: 5,
    idle_timeout: 60,
    max_lifetime: 60 * 30,
    connection: { application_name: options.name ?? "webhook-admin" },
  });
}

function databaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set: start the product with `npm start`, or set DATABASE_URL");
  return url;
}

function clients(): Clients {
  const url = databaseUrl();
  if (!holder.__webhookAdminDb || holder.__webhookAdminDb.url !== url) {
    const max = Number(process.env.DATABASE_POOL_SIZE ?? 10);
    const drizzleSql = createSql(url, { max });
    holder.__webhookAdminDb = { url, sql: createSql(url, { max }), drizzleSql, db: drizzle(drizzleSql, { schema }) };
  }
  return holder.__webhookAdminDb;
}

/** The process-wide drizzle database on DATABASE_URL. */
export function getDb(): DB {
  return clients().db;
}

/** The process-wide postgres.js client, for the hot paths written in SQL. */
export function getSql(): Sql {
  return clients().sql;
}

export async function closeDb(): Promise<void> {
  const current = holder.__webhookAdminDb;
  holder.__webhookAdminDb = undefined;
  await Promise.all([current?.sql.end({ timeout: 5 }), current?.drizzleSql.end({ timeout: 5 })]);
}

export { schema };

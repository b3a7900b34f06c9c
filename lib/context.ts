import type { Config } from "./config";
import { ormOver, type Executor, type Sql, type SqlOrTx, type SqlTx } from "./db/client";
import { retryOnConflict } from "./db/retry";
import type { OperatorRole, PortalPermission } from "./db/schema/access";

/** Who is acting. A portal actor may only ever see its own consumer's rows. */
export type Actor =
  | { type: "api_key"; id: string }
  /**
   * An operator: `sessionId` when acting through a dashboard session (lib/operator-sessions), whose
   * "this device" and "everywhere else" it names; `mustEnroll` while a second factor is required of
   * everyone and this operator has none — only their own account's routes are theirs until enrolled.
   */
  | { type: "operator"; id: string; role: OperatorRole; sessionId?: string; mustEnroll?: boolean }
  /**
   * A customer's portal session: `id` is the session's, the rest come from the link that made it;
   * `svix` when the Svix API made it ("token": its bearer token, for the Svix routes only).
   */
  | { type: "portal"; id: string; consumerId: string; capabilities: readonly PortalPermission[]; svix?: "link" | "token" }
  | { type: "system" };

/**
 * What every verb is given: who acts, the one database handle (as drizzle in `db` and as
 * postgres.js in `sql`: the same connection, so both write in one transaction) and the config.
 * Built at the process's edges (lib/open-ctx.ts); verbs never reach for a pool or the environment.
 */
/** The product itself acting: the worker's rules, start-up, the CLI. */
export const SYSTEM: Actor = { type: "system" };

export type Ctx = {
  actor: Actor;
  db: Executor;
  sql: SqlOrTx;
  config: Config;
  /** Set inside inTransaction: verbs called with this ctx join the caller's transaction. */
  inTransaction?: true;
  /** DATABASE_READ_URL's replica, when one is configured: taken only through onReplica. */
  replica?: { db: Executor; sql: SqlOrTx };
};

/**
 * The ctx for a read that tolerates replication lag — a list or a figure a person looks at, where
 * a page a second old is no harm (docs/scaling.md#read-replicas-for-the-dashboards-queries): on the
 * replica when one is configured. Inside a transaction it stays there, since whoever opened it may
 * need what it wrote; and every other read (a single row, what a write is about to check, what a
 * page shows right after its own write) never calls this, so it stays on the primary.
 */
export function onReplica(ctx: Ctx): Ctx {
  if (!ctx.replica || ctx.inTransaction) return ctx;
  return { actor: ctx.actor, config: ctx.config, db: ctx.replica.db, sql: ctx.replica.sql };
}

/**
 * Runs `work` in one transaction and hands it a ctx bound to it. A ctx already in a transaction is
 * joined, so a verb's writes become part of its caller's. A transaction this opens is run again on a
 * deadlock or serialization failure (a joined one is the caller's to retry).
 */
export function inTransaction<T>(ctx: Ctx, work: (tx: Ctx) => Promise<T>): Promise<T> {
  if (ctx.inTransaction) return work(ctx);
  const pool = ctx.sql as Sql;
  return retryOnConflict(() => pool.begin((sql) => work(inTransactionOn(ctx, sql))) as Promise<T>);
}

/**
 * Runs `work` in a savepoint of the caller's transaction: its failure undoes its own writes only,
 * and the caller goes on.
 */
export function inSavepoint<T>(ctx: Ctx, work: (tx: Ctx) => Promise<T>): Promise<T> {
  if (!ctx.inTransaction) return inTransaction(ctx, work);
  return (ctx.sql as SqlTx).savepoint((sql) => work(inTransactionOn(ctx, sql))) as Promise<T>;
}

/** The ctx bound to an open transaction. Its drizzle view is made on first use only. */
function inTransactionOn(ctx: Ctx, sql: SqlTx): Ctx {
  let db: Executor | undefined;
  return {
    actor: ctx.actor,
    sql,
    config: ctx.config,
    inTransaction: true,
    get db() {
      return (db ??= ormOver(sql));
    },
  };
}

/** The consumer a query must be limited to, or null when the actor sees every consumer. */
export function consumerScope(ctx: Pick<Ctx, "actor">): string | null {
  return ctx.actor.type === "portal" ? ctx.actor.consumerId : null;
}

/**
 * Who may read what signs or authenticates a customer's deliveries — signing secrets and the values
 * of an endpoint's custom headers (an `Authorization` the receiver wants): API keys, admins, and a
 * portal session whose link granted `view_secrets`. A viewer reads everything else: with a secret
 * anyone can forge webhooks to that customer.
 */
export function maySeeSecrets(ctx: Ctx): boolean {
  const { actor } = ctx;
  if (actor.type === "operator") return actor.role === "admin";
  if (actor.type === "portal") return actor.capabilities.includes("view_secrets");
  return true;
}

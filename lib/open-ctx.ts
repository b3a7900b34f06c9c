import { getConfig, type Config } from "./config";
import type { Actor, Ctx } from "./context";
import { getDb, getReplica, getSql, ormOver, type Sql } from "./db/client";

/**
 * The one place a ctx is made from the process's pool and environment: route wrappers, worker
 * tasks, the CLI and scripts call it once per request, job or command, and pass the ctx down.
 */
export function openCtx(actor: Actor): Ctx {
  const replica = getReplica();
  return { actor, db: getDb(), sql: getSql(), config: getConfig(), ...(replica ? { replica } : {}) };
}

/** A ctx on a pool of the caller's own (the bench's, a second database's), with its own config where the process has none. */
export function ctxOver(sql: Sql, actor: Actor = { type: "system" }, config: Config = getConfig()): Ctx {
  return { actor, db: ormOver(sql), sql, config };
}

/** A ctx for work nobody asked for in person: the worker's tasks, start-up, the CLI. */
export function systemCtx(): Ctx {
  return openCtx({ type: "system" });
}

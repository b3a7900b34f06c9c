import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The request being served, for whatever runs on its behalf: lib/logger.ts stamps `req_id` on
 * every line written inside it, and the access line names the actor the API wrapper found.
 */
export type RequestScope = {
  /** The request id: the client's X-Request-Id when it is acceptable, else one made here. */
  readonly id: string;
  /** `api_key`, `operator` or `portal` once authenticated; null until then (and for routes without credentials). */
  actor: string | null;
};

// On globalThis: Next.js may evaluate this module once per route bundle, and the logger (one per
// process) must read the same store the route wrote.
const holder = globalThis as unknown as { __webhookAdminRequestScope?: AsyncLocalStorage<RequestScope> };
const storage = (holder.__webhookAdminRequestScope ??= new AsyncLocalStorage<RequestScope>());

/** Runs `fn` as the request `scope`: everything it starts, awaited or not, sees the scope. */
export function runInRequestScope<T>(scope: RequestScope, fn: () => T): T {
  return storage.run(scope, fn);
}

/** The request being served here, or undefined outside one (the worker, start-up, timers of the process). */
export function requestScope(): RequestScope | undefined {
  return storage.getStore();
}

/** Names the actor the request authenticated as (its type: never an id or a credential) for its access line. */
export function noteActor(type: string): void {
  const scope = storage.getStore();
  if (scope) scope.actor = type;
}

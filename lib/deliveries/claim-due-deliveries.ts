import { randomUUID } from "node:crypto";
import type { Sql } from "../db/client";
import { leaseWakeAdded, leaseWakeDue } from "../jobs";
import type { AttemptTrigger, QueueKind } from "../db/schema";
import { QUEUE_KINDS } from "../db/schema/messages";
import { resolveTarget, type ResolvedTarget } from "../destinations";
import type { DueDelivery } from "./attempt-delivery";
import { decryptSecrets } from "./signing-keys";

export type ClaimedDelivery = DueDelivery & {
  /** The endpoint's signing secrets, decrypted: the current one and any still in rotation overlap; null if they cannot be. */
  secrets: string[] | null;
  kind: QueueKind;
  probe: boolean;
};

/** What an attempt of a claimed row is called in the log. */
export function triggerOf(row: Pick<ClaimedDelivery, "kind" | "probe">): AttemptTrigger {
  return row.kind === QUEUE_KINDS.recovery ? "recovery" : row.kind === QUEUE_KINDS.manual ? "manual" : row.probe ? "probe" : "scheduled";
}

/** `destination` and `target`: the endpoint's kind and what it stores for it (lib/destinations/), whatever the kind. */
type ClaimedRow = Omit<ClaimedDelivery, "secrets" | "route"> & { destination: string; target: unknown; ciphertexts: string[]; more: boolean };

/**
 * Leases due queue rows — scheduled attempts, then manual resends, then recovery items (or the kinds asked for) — at most
 * `limit`, within every endpoint's limits (concurrency cap, rate limit, circuit breaker), counted in
 * Postgres so they hold across all worker processes. The whole claim — scan, endpoint locks,
 * limits, parking, wake-ups, lease — is one call of the SQL function webhook_admin_claim_deliveries_v2
 * (claim-due-deliveries.sql beside this file), which runs one function per stage (claim/*.sql).
 * `more`: due work remains beyond this claim (the other workers have been notified of it too).
 */
export async function claimDueDeliveries(
  sql: Sql,
  /**
   * `keys`: what decrypts the endpoints' secrets (decryptionKeys). `kinds`: the queue kinds this
   * claim serves (all by default); a claim without recovery items that finds every endpoint of its
   * rows held by other transactions waits for them, `lockWaitMs` at most (200 by default).
   */
  input: { limit: number; leaseMs: number; defaultConcurrency: number; keys: Buffer[]; kinds?: readonly QueueKind[]; lockWaitMs?: number },
): Promise<{ token: string; deliveries: ClaimedDelivery[]; more: boolean }> {
  const token = randomUUID();
  const leaseWake = leaseWakeDue(Date.now() + input.leaseMs);
  const kinds = input.kinds ? input.kinds.map(String) : null;
  const rows = await sql<ClaimedRow[]>`
    select * from webhook_admin_claim_deliveries_v2(${input.limit}::int, ${input.leaseMs}::int, ${input.defaultConcurrency}::int,
                                                    ${token}, ${leaseWake}::timestamptz, ${kinds}::text[]::smallint[], ${input.lockWaitMs ?? 200}::int)`;
  // The function adds the lease's wake-up only when it claims something.
  if (leaseWake && rows.length > 0) leaseWakeAdded(leaseWake);
  // A target is parsed once per endpoint in the claim, not once per delivery.
  const routes = new Map<string, ResolvedTarget>();
  const routeOf = (row: ClaimedRow) => {
    let route = routes.get(row.endpoint_id);
    if (!route) routes.set(row.endpoint_id, (route = resolveTarget(row.destination, row.target)));
    return route;
  };
  const deliveries = rows.map((row) => {
    const { ciphertexts, more: _, destination: _kind, target: _target, ...d } = row;
    return { ...d, route: routeOf(row), secrets: decryptSecrets(ciphertexts, input.keys) };
  });
  return { token, deliveries, more: rows[0]?.more ?? false };
}

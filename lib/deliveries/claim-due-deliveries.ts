import { randomUUID } from "node:crypto";
import type { Sql } from "../db/client";
import { asTextArray } from "../db/arrays";
import { planClaim, type EndpointLimits } from "./plan-claim";
import { wakeAtLeaseEnd, wakeDeliveries, wakeDeliveriesAt } from "../jobs";
import { activeSecretCiphertexts, decryptSecrets } from "./signing-keys";

export type ClaimedDelivery = {
  id: string;
  message_id: string;
  endpoint_id: string;
  consumer_id: string;
  attempts: number;
  scheduled_attempts: number;
  created_at: Date;
  payload: string;
  url: string;
  headers: Record<string, string>;
  /** The endpoint's signing secrets, decrypted: the current one and any still in rotation overlap; null if they cannot be. */
  secrets: string[] | null;
  probe: boolean;
};

const LOCKED_RETRY_MS = 100;

type ClaimedRow = Omit<ClaimedDelivery, "probe" | "secrets"> & { ciphertexts: string[] };

/**
 * Leases due deliveries, at most `limit`, within every endpoint's limits (concurrency cap, rate
 * limit, circuit breaker), counted in Postgres so they hold across all worker processes.
 *
 * The lease is the row's next_attempt_at pushed to the lease's end, with a token: if the worker
 * dies, the delivery comes due again when the lease runs out, and a late outcome from the old
 * holder no longer matches the token. Due rows are scanned with SKIP LOCKED so workers claim side
 * by side; endpoint rows are locked (in id order) so two claims never both take the last slot.
 * The wake-ups a claim needs (a sibling task when due work remains, one at the lease's end) are
 * added in the same transaction, so claiming costs no round trip beyond it.
 */
export async function claimDueDeliveries(
  sql: Sql,
  input: { limit: number; leaseMs: number; defaultConcurrency: number },
): Promise<{ token: string; deliveries: ClaimedDelivery[]; skipped: boolean }> {
  const token = randomUUID();
  // Due work this claim saw but left for another (endpoint busy in another claim, batch full).
  let skipped = false;
  const deliveries = await sql.begin(async (tx) => {
    const candidates = await tx<{ id: string; endpoint_id: string }[]>`
      select id, endpoint_id from deliveries
      where status = 'pending' and next_attempt_at <= now()
      order by next_attempt_at
      limit ${input.limit * 2}
      for update skip locked`;
    if (candidates.length === 0) return [];
    // Endpoints another claim is working on right now are skipped, not waited for: their due
    // deliveries stay due for the next claim, and concurrent claims share out the endpoints.
    // Lock first, count after, in separate statements: a count in the locking statement would use
    // the snapshot from before the lock and could miss leases another claim just committed.
    const locked = await tx<{ id: string }[]>`
      select id from endpoints where id = any(${[...new Set(candidates.map((c) => c.endpoint_id))]})
      order by id for update skip locked`;
    const endpointIds = locked.map((e) => e.id);
    const mine = new Set(endpointIds);
    skipped = candidates.some((c) => !mine.has(c.endpoint_id));
    // Due deliveries whose endpoint row another transaction holds (a claim, an outcome write): if
    // this claim takes nothing, nothing may come back for them, so a wake-up shortly does.
    const retryLockedSoon = () => (skipped ? wakeDeliveries(tx, Date.now() + LOCKED_RETRY_MS) : null);
    if (endpointIds.length === 0) {
      await retryLockedSoon();
      return [];
    }
    const rows = await tx<(Omit<EndpointLimits, "maxConcurrency" | "leased"> & { maxConcurrency: number | null; leased: string; now: Date })[]>`
      select now() as now, e.id, e.state, e.max_concurrency as "maxConcurrency", e.rate_limit_per_second as "rateLimitPerSecond",
             e.rate_window_start as "rateWindowStart", e.rate_window_count as "rateWindowCount",
             e.circuit_open_until as "circuitOpenUntil",
             (select count(*) from deliveries l
               where l.endpoint_id = e.id and l.lease_token is not null and l.next_attempt_at > now()) as leased
      from endpoints e where e.id = any(${endpointIds})`;
    const now = rows[0]?.now ?? new Date();
    const plan = planClaim({
      candidates: candidates.filter((c) => mine.has(c.endpoint_id)).map((c) => ({ id: c.id, endpointId: c.endpoint_id })),
      endpoints: rows.map((r) => ({ ...r, maxConcurrency: r.maxConcurrency ?? input.defaultConcurrency, leased: Number(r.leased) })),
      now,
      limit: input.limit,
      leaseMs: input.leaseMs,
    });
    const handled = plan.claim.length + plan.parkUntil.length + plan.parkForSlot.length + plan.cancel.length;
    if (handled < candidates.filter((c) => mine.has(c.endpoint_id)).length) skipped = true;
    const writes: Promise<unknown>[] = [];
    // Parked deliveries come due again at their time; something must be there to claim them then.
    const wakeTimes = [...plan.parkUntil, ...plan.parkForSlot].map((p) => p.until.getTime());
    writes.push(...wakeDeliveriesAt(tx, wakeTimes));
    if (plan.parkUntil.length > 0) {
      writes.push(tx`
        update deliveries d set next_attempt_at = v.until, updated_at = now()
        from unnest(${plan.parkUntil.map((p) => p.id)}::text[], ${asTextArray(plan.parkUntil.map((p) => p.until))}::text[]::timestamptz[]) as v(id, until)
        where d.id = v.id`);
    }
    if (plan.parkForSlot.length > 0) {
      writes.push(tx`
        update deliveries d set parked = true, next_attempt_at = v.until, updated_at = now()
        from unnest(${plan.parkForSlot.map((p) => p.id)}::text[], ${asTextArray(plan.parkForSlot.map((p) => p.until))}::text[]::timestamptz[]) as v(id, until)
        where d.id = v.id`);
    }
    if (plan.cancel.length > 0) {
      writes.push(tx`
        update deliveries set status = 'canceled', next_attempt_at = null, last_error = 'endpoint_not_active', updated_at = now()
        where id = any(${plan.cancel})`);
    }
    if (plan.endpoints.length > 0) {
      writes.push(tx`
        update endpoints e set circuit_open_until = v.circuit, rate_window_start = v.window_start, rate_window_count = v.window_count
        from unnest(${plan.endpoints.map((e) => e.id)}::text[], ${asTextArray(plan.endpoints.map((e) => e.circuitOpenUntil))}::text[]::timestamptz[],
                    ${asTextArray(plan.endpoints.map((e) => e.rateWindowStart))}::text[]::timestamptz[],
                    ${asTextArray(plan.endpoints.map((e) => e.rateWindowCount))}::text[]::int[]) as v(id, circuit, window_start, window_count)
        where e.id = v.id and (e.circuit_open_until is distinct from v.circuit or e.rate_window_start is distinct from v.window_start
                               or e.rate_window_count <> v.window_count)`);
    }
    if (plan.claim.length === 0) {
      await Promise.all([...writes, retryLockedSoon()]);
      return [];
    }
    // Due work remains beyond this claim: a sibling task takes it while these are sent.
    if (skipped || plan.claim.length === input.limit) writes.push(wakeDeliveries(tx));
    const leaseWake = wakeAtLeaseEnd(tx, Date.now() + input.leaseMs);
    if (leaseWake) writes.push(leaseWake);
    const probes = new Set(plan.claim.filter((c) => c.probe).map((c) => c.id));
    const [claimed] = await Promise.all([
      tx<ClaimedRow[]>`
        update deliveries d
        set next_attempt_at = now() + ${input.leaseMs} * interval '1 millisecond', lease_token = ${token}, parked = false, updated_at = now()
        from messages m, endpoints e
        where d.id = any(${plan.claim.map((c) => c.id)}) and m.id = d.message_id and e.id = d.endpoint_id
        returning d.id, d.message_id, d.endpoint_id, d.consumer_id, d.attempts, d.scheduled_attempts, d.created_at,
                  m.payload, e.url, e.headers, ${activeSecretCiphertexts(tx)} as ciphertexts`,
      ...writes,
    ]);
    return (claimed as ClaimedRow[]).map(({ ciphertexts, ...d }) => ({
      ...d,
      secrets: decryptSecrets(ciphertexts),
      probe: probes.has(d.id),
    }));
  });
  return { token, deliveries, skipped };
}

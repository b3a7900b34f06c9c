/**
 * Which due deliveries a claim may take, given each endpoint's limits — pure, so the policy can
 * be tested without a database. Everything scanned is either claimed or parked: a delivery that
 * must wait is moved out of the way, so it never blocks other endpoints' work behind it.
 */
export type Candidate = { id: string; endpointId: string };

export type EndpointLimits = {
  id: string;
  state: "active" | "disabled" | "auto_disabled";
  maxConcurrency: number;
  leased: number;
  rateLimitPerSecond: number | null;
  rateWindowStart: Date | null;
  rateWindowCount: number;
  circuitOpenUntil: Date | null;
};

export type ClaimPlan = {
  claim: { id: string; probe: boolean }[];
  /** Wait until the next second: this second's rate budget is spent. */
  parkUntil: { id: string; until: Date }[];
  /**
   * Wait for the endpoint: a free concurrency slot, or the outcome of its circuit's probe. Woken by
   * the endpoint's next outcome; `until` is the safety net should no outcome come.
   */
  parkForSlot: { id: string; until: Date }[];
  /** The endpoint is no longer active. */
  cancel: string[];
  endpoints: { id: string; circuitOpenUntil: Date | null; rateWindowStart: Date | null; rateWindowCount: number }[];
};

export function planClaim(input: {
  candidates: Candidate[];
  endpoints: EndpointLimits[];
  now: Date;
  limit: number;
  leaseMs: number;
}): ClaimPlan {
  const { now } = input;
  const plan: ClaimPlan = { claim: [], parkUntil: [], parkForSlot: [], cancel: [], endpoints: [] };
  const byEndpoint = new Map<string, Candidate[]>();
  for (const candidate of input.candidates) {
    const list = byEndpoint.get(candidate.endpointId) ?? [];
    list.push(candidate);
    byEndpoint.set(candidate.endpointId, list);
  }
  const second = new Date(Math.floor(now.getTime() / 1000) * 1000);
  for (const endpoint of input.endpoints) {
    const waiting = byEndpoint.get(endpoint.id) ?? [];
    if (waiting.length === 0) continue;
    if (endpoint.state !== "active") {
      plan.cancel.push(...waiting.map((c) => c.id));
      continue;
    }
    // Open circuit (or a probe in flight): nothing goes. The backlog waits parked — not re-polled —
    // and the probe's outcome wakes it; the circuit's end is only the safety net.
    if (endpoint.circuitOpenUntil && endpoint.circuitOpenUntil > now) {
      plan.parkForSlot.push(...waiting.map((c) => ({ id: c.id, until: endpoint.circuitOpenUntil! })));
      continue;
    }
    const halfOpen = endpoint.circuitOpenUntil !== null;
    let allowed = Math.max(0, endpoint.maxConcurrency - endpoint.leased);
    if (halfOpen) allowed = Math.min(allowed, endpoint.leased === 0 ? 1 : 0);
    let windowStart = endpoint.rateWindowStart;
    let windowCount = endpoint.rateWindowCount;
    if (endpoint.rateLimitPerSecond !== null) {
      if (!windowStart || windowStart.getTime() !== second.getTime()) {
        windowStart = second;
        windowCount = 0;
      }
      allowed = Math.min(allowed, Math.max(0, endpoint.rateLimitPerSecond - windowCount));
    }
    allowed = Math.min(allowed, input.limit - plan.claim.length);
    const taken = waiting.slice(0, allowed);
    const rest = waiting.slice(allowed);
    plan.claim.push(...taken.map((c) => ({ id: c.id, probe: halfOpen })));
    if (endpoint.rateLimitPerSecond !== null) windowCount += taken.length;
    const rateSpent = endpoint.rateLimitPerSecond !== null && windowCount >= endpoint.rateLimitPerSecond;
    const slotsFull = endpoint.leased + taken.length >= endpoint.maxConcurrency || halfOpen;
    if (rateSpent && !slotsFull) {
      const nextSecond = new Date(second.getTime() + 1000);
      plan.parkUntil.push(...rest.map((c) => ({ id: c.id, until: nextSecond })));
    } else if (slotsFull || rateSpent) {
      const until = new Date(now.getTime() + input.leaseMs);
      plan.parkForSlot.push(...rest.map((c) => ({ id: c.id, until })));
    }
    // (Whatever is left beyond the batch limit simply stays due for the next claim.)
    plan.endpoints.push({
      id: endpoint.id,
      // A half-open circuit is held open for the probe's lease, so no other worker probes too.
      circuitOpenUntil: halfOpen && taken.length > 0 ? new Date(now.getTime() + input.leaseMs) : endpoint.circuitOpenUntil,
      rateWindowStart: windowStart,
      rateWindowCount: windowCount,
    });
  }
  return plan;
}

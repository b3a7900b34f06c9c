import { describe, expect, it } from "vitest";
import { planClaim, type EndpointLimits } from "./plan-claim";

const now = new Date("2026-11-30T12:00:00.500Z");
const endpoint = (over: Partial<EndpointLimits> = {}): EndpointLimits => ({
  id: "ep_a",
  state: "active",
  maxConcurrency: 10,
  leased: 0,
  rateLimitPerSecond: null,
  rateWindowStart: null,
  rateWindowCount: 0,
  circuitOpenUntil: null,
  ...over,
});
const candidates = (n: number, endpointId = "ep_a") => Array.from({ length: n }, (_, i) => ({ id: `${endpointId}_${i}`, endpointId }));
const plan = (c: ReturnType<typeof candidates>, endpoints: EndpointLimits[], limit = 100) =>
  planClaim({ candidates: c, endpoints, now, limit, leaseMs: 30_000 });

describe("planClaim", () => {
  it("takes only the free slots and parks the rest for the next free slot", () => {
    const result = plan(candidates(8), [endpoint({ maxConcurrency: 3, leased: 1 })]);
    expect(result.claim.map((c) => c.id)).toEqual(["ep_a_0", "ep_a_1"]);
    expect(result.parkForSlot).toHaveLength(6);
    expect(result.parkForSlot[0]!.until.getTime()).toBe(now.getTime() + 30_000);
  });

  it("keeps one endpoint's backlog from crowding out another's", () => {
    const result = plan([...candidates(50, "ep_a"), ...candidates(5, "ep_b")], [endpoint({ id: "ep_a" }), endpoint({ id: "ep_b" })]);
    expect(result.claim.filter((c) => c.id.startsWith("ep_b"))).toHaveLength(5);
    expect(result.claim.filter((c) => c.id.startsWith("ep_a"))).toHaveLength(10);
    expect(result.parkForSlot).toHaveLength(40);
  });

  it("parks everything while the circuit is open, until its end at the latest", () => {
    const openUntil = new Date(now.getTime() + 20_000);
    const result = plan(candidates(4), [endpoint({ circuitOpenUntil: openUntil })]);
    expect(result.claim).toEqual([]);
    expect(result.parkForSlot.map((p) => p.until)).toEqual(Array(4).fill(openUntil));
  });

  it("sends exactly one probe when the circuit half-opens and holds it open meanwhile", () => {
    const result = plan(candidates(4), [endpoint({ circuitOpenUntil: new Date(now.getTime() - 1) })]);
    expect(result.claim).toEqual([{ id: "ep_a_0", probe: true }]);
    expect(result.parkForSlot).toHaveLength(3);
    expect(result.endpoints[0]!.circuitOpenUntil!.getTime()).toBe(now.getTime() + 30_000);
    // Not while an attempt is still in flight.
    expect(plan(candidates(2), [endpoint({ circuitOpenUntil: new Date(now.getTime() - 1), leased: 1 })]).claim).toEqual([]);
  });

  it("spends the rate budget of the current second and parks the rest until the next", () => {
    const result = plan(candidates(10), [endpoint({ rateLimitPerSecond: 5, rateWindowStart: new Date("2026-11-30T12:00:00.000Z"), rateWindowCount: 2 })]);
    expect(result.claim).toHaveLength(3);
    expect(result.parkUntil.map((p) => p.until.toISOString())).toEqual(Array(7).fill("2026-11-30T12:00:01.000Z"));
    expect(result.endpoints[0]).toMatchObject({ rateWindowCount: 5 });
    const fresh = plan(candidates(10), [endpoint({ rateLimitPerSecond: 5, rateWindowStart: new Date("2026-11-30T11:59:59.000Z"), rateWindowCount: 5 })]);
    expect(fresh.claim).toHaveLength(5);
  });

  it("cancels deliveries of endpoints that are no longer active and respects the batch limit", () => {
    expect(plan(candidates(3), [endpoint({ state: "disabled" })]).cancel).toHaveLength(3);
    const limited = plan(candidates(20), [endpoint({ maxConcurrency: 100 })], 7);
    expect(limited.claim).toHaveLength(7);
    expect(limited.parkForSlot).toHaveLength(0);
  });
});

import { describe, expect, it } from "vitest";
import { RateLimiter } from "./rate-limit";

describe("RateLimiter", () => {
  it("keeps at most its bound of buckets, dropping the least recently used, which starts full again", () => {
    const limiter = new RateLimiter(1, 3);
    const now = 1_000_000;
    expect(limiter.take("a", now)).toBe(0);
    expect(limiter.take("a", now)).toBeGreaterThan(0);
    for (const key of ["b", "c"]) expect(limiter.take(key, now)).toBe(0);
    // "a" is the least recently used of the three; a fourth credential drops it.
    expect(limiter.take("d", now)).toBe(0);
    expect((limiter as unknown as { buckets: Map<string, unknown> }).buckets.size).toBe(3);
    expect(limiter.take("a", now)).toBe(0);
    // "b" went when "a" came back; "d" is still held, and empty.
    expect(limiter.take("d", now)).toBeGreaterThan(0);
  });
});

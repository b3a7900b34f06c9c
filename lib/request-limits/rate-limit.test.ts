import { describe, expect, it } from "vitest";
import { failureBucket } from "./auth-failures";
import { SHARED_CLIENT } from "./client-address";
import { FailedAuthLimiter, RateLimiter } from "./rate-limit";

describe("failureBucket", () => {
  it("is the client's where its address is known, the token's own where not", () => {
    expect(failureBucket("198.51.100.1", "aa")).toBe(failureBucket("198.51.100.1", "bb"));
    expect(failureBucket(SHARED_CLIENT, "aa")).not.toBe(failureBucket(SHARED_CLIENT, "bb"));
    expect(failureBucket(SHARED_CLIENT, "aa")).not.toBe(failureBucket("aa", "aa"));
  });
});

describe("FailedAuthLimiter", () => {
  it("refuses a bucket once its failures are spent, lets a token that authenticated pass, and refills over a minute", () => {
    const limiter = new FailedAuthLimiter(2);
    const now = 1_000_000;
    limiter.succeeded("known");
    limiter.failed("a", "x", now);
    expect(limiter.retryAfter("a", "y", now)).toBe(0);
    limiter.failed("a", "y", now);
    expect(limiter.retryAfter("a", "z", now)).toBe(30);
    expect(limiter.retryAfter("a", undefined, now)).toBe(30);
    expect(limiter.retryAfter("a", "known", now)).toBe(0);
    expect(limiter.retryAfter("b", "z", now)).toBe(0);
    expect(limiter.retryAfter("a", "z", now + 30_000)).toBe(0);
  });

  it("keeps at most maxEntries buckets and known tokens, dropping the least recently used", () => {
    const limiter = new FailedAuthLimiter(1, 2);
    for (const bucket of ["a", "b", "c"]) limiter.failed(bucket);
    expect(limiter.retryAfter("a")).toBe(0);
    expect(limiter.retryAfter("b")).toBeGreaterThan(0);
    expect(limiter.retryAfter("c")).toBeGreaterThan(0);
    for (const token of ["t1", "t2", "t3"]) limiter.succeeded(token);
    expect(limiter.retryAfter("c", "t1")).toBeGreaterThan(0);
    expect(limiter.retryAfter("c", "t3")).toBe(0);
  });
});

describe("RateLimiter", () => {
  it("keeps at most maxEntries keys' buckets", () => {
    const limiter = new RateLimiter(1, 2);
    const now = 1_000_000;
    for (const key of ["a", "b", "c"]) expect(limiter.take(key, now)).toBe(0);
    // a's bucket was dropped for c's: a starts full again; c's is still spent.
    expect(limiter.take("a", now)).toBe(0);
    expect(limiter.take("c", now)).toBe(1);
  });
});

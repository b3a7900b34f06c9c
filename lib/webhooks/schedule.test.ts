import { describe, expect, it } from "vitest";
import { parseConfig } from "../config";
import { applyRetryAfter, delayBeforeAttempt, nextAttemptAfterFailure, parseRetryAfter } from "./schedule";

const KEY = "0".repeat(64);
const schedule = parseConfig({ ENCRYPTION_KEY: KEY }).DELIVERY_SCHEDULE;

describe("the default schedule", () => {
  it("is 0, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: 8 attempts over about 28 hours", () => {
    expect(schedule).toEqual([0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
    const total = schedule.reduce((a, b) => a + b, 0);
    expect(total / 3_600_000).toBeCloseTo(27.6, 1);
  });

  it("schedules attempt 8 after attempt 7 and nothing after attempt 8", () => {
    expect(delayBeforeAttempt(schedule, 0)).toBe(0);
    expect(nextAttemptAfterFailure(schedule, 1, 0)).toBe(5_000);
    expect(nextAttemptAfterFailure(schedule, 7, 1000)).toBe(1000 + 36_000_000);
    expect(nextAttemptAfterFailure(schedule, 8, 1000)).toBeNull();
  });
});

describe("Retry-After", () => {
  it("waits at least Retry-After, at most twice the scheduled delay, never past the schedule's end", () => {
    const now = 1_000_000;
    expect(applyRetryAfter(now + 5_000, 8_000, now, now + 100_000)).toBe(now + 8_000);
    expect(applyRetryAfter(now + 5_000, 60_000, now, now + 100_000)).toBe(now + 10_000);
    expect(applyRetryAfter(now + 5_000, 1_000, now, now + 100_000)).toBe(now + 5_000);
    expect(applyRetryAfter(now + 5_000, 9_000, now, now + 7_000)).toBe(now + 7_000);
    expect(applyRetryAfter(now + 5_000, null, now, now + 7_000)).toBe(now + 5_000);
  });

  it("parses seconds and HTTP dates", () => {
    expect(parseRetryAfter("120", 0)).toBe(120_000);
    expect(parseRetryAfter(new Date(60_000).toUTCString(), 0)).toBe(60_000);
    expect(parseRetryAfter("soon", 0)).toBeNull();
    expect(parseRetryAfter(undefined, 0)).toBeNull();
  });
});

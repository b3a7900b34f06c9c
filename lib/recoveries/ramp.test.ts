import { describe, expect, it } from "vitest";
import { allowedBetween, rateAt } from "./ramp";

describe("a recovery's ramp", () => {
  const ramp = { target: 64, startedAt: 0, everyMs: 1000 };

  it("starts at an eighth of the target and doubles each step up to it", () => {
    expect([0, 999, 1000, 2500, 3000, 60_000].map((t) => rateAt(ramp, t))).toEqual([8, 8, 16, 32, 64, 64]);
    expect(rateAt({ target: 4, startedAt: 0, everyMs: 1000 }, 0)).toBe(1);
    expect(rateAt({ target: 64, startedAt: null, everyMs: 1000 }, 99_000)).toBe(8);
  });

  it("credits a span at the rates in force during it, not at the rate at its end", () => {
    expect(allowedBetween(ramp, 0, 1000)).toBeCloseTo(8);
    expect(allowedBetween(ramp, 0, 4000)).toBeCloseTo(8 + 16 + 32 + 64);
    // One late tick across a step boundary: half a second at 8/s, half at 16/s.
    expect(allowedBetween(ramp, 500, 1500)).toBeCloseTo(4 + 8);
    expect(allowedBetween(ramp, 10_000, 10_250)).toBeCloseTo(16);
  });
});

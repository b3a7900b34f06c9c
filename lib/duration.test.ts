import { describe, expect, it } from "vitest";
import { readableDuration } from "./duration";

describe("a measured time for a reader", () => {
  it("is in the largest unit it fills", () => {
    expect([0, 999, 1000, 4200, 59_999, 60_000, 720_000, 12_600_000, 172_800_000].map(readableDuration)).toEqual([
      { value: 0, unit: "millisecond" },
      { value: 999, unit: "millisecond" },
      { value: 1, unit: "second" },
      { value: 4.2, unit: "second" },
      { value: 59.999, unit: "second" },
      { value: 1, unit: "minute" },
      { value: 12, unit: "minute" },
      { value: 3.5, unit: "hour" },
      { value: 2, unit: "day" },
    ]);
  });
});

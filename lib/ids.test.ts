import { describe, expect, it } from "vitest";
import { newId } from "./ids";

describe("newId", () => {
  it("is the prefix and 26 Crockford base32 characters, sorting by creation time", () => {
    const a = newId("message", 1_700_000_000_000);
    const b = newId("message", 1_700_000_000_001);
    expect(a).toMatch(/^msg_[0-9a-hjkmnp-tv-z]{26}$/);
    expect(a < b).toBe(true);
    expect(newId("message", 0).slice(4, 14)).toBe("0000000000");
    expect(newId("message", 2 ** 48 - 1).slice(4, 14)).toBe("7zzzzzzzzz");
  });

  it("does not repeat", () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => newId("attempt", 1)));
    expect(ids.size).toBe(10_000);
  });
});

describe("ids made in one millisecond", () => {
  it("sort in the order they were made, so newest-first lists are deterministic", () => {
    const ids = Array.from({ length: 10_000 }, () => newId("consumer", 1_700_000_000_000));
    for (let i = 1; i < ids.length; i++) expect(ids[i]! > ids[i - 1]!, `${ids[i - 1]} then ${ids[i]}`).toBe(true);
    // A later millisecond still sorts after all of them.
    expect(newId("consumer", 1_700_000_000_001) > ids.at(-1)!).toBe(true);
  });
});

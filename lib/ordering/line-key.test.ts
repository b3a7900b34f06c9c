import { describe, expect, it } from "vitest";
import { lineKeyOf } from "./line-key";

describe("lineKeyOf", () => {
  const payload = { data: { customer: "cus_1", n: 42, ok: true, nested: { a: 1 }, list: ["x", "y"], none: null }, "data.customer": "flat" };

  it("reads the value at a dotted path: strings as they are, numbers and booleans as JSON text", () => {
    expect(lineKeyOf(payload, "data.customer")).toBe("cus_1");
    expect(lineKeyOf(payload, "data.n")).toBe("42");
    expect(lineKeyOf(payload, "data.ok")).toBe("true");
    expect(lineKeyOf(payload, "data.list.1")).toBe("y");
  });

  it("puts a message without a usable value, or any message when there is no key, in the line named \"\"", () => {
    expect(lineKeyOf(payload, null)).toBe("");
    for (const path of ["data.missing", "data.nested", "data.list", "data.none", "data.customer.deeper", "data.list.9", "data.__proto__"]) {
      expect(lineKeyOf(payload, path), path).toBe("");
    }
    expect(lineKeyOf("text", "data.customer")).toBe("");
    expect(lineKeyOf(null, "a")).toBe("");
  });

  it("names a value longer than 128 characters by its hash: the same value, the same line", () => {
    const long = "x".repeat(500);
    const key = lineKeyOf({ k: long }, "k");
    expect(key).toMatch(/^#[0-9a-f]{64}$/);
    expect(lineKeyOf({ k: long }, "k")).toBe(key);
    expect(lineKeyOf({ k: `${long}y` }, "k")).not.toBe(key);
    expect(lineKeyOf({ k: "x".repeat(128) }, "k")).toBe("x".repeat(128));
  });
});

import { describe, expect, it } from "vitest";
import { checkSchema, compileSchema, MAX_VIOLATIONS, schemaTypeScript, typeNameOf } from ".";

const problemsOf = (schema: Record<string, unknown>) => checkSchema(schema).problems.map((p) => [p.pointer, p.message]);

describe("checkSchema", () => {
  it("accepts a 2020-12 schema, with or without $schema, unknown keywords and formats as annotations", () => {
    const schema = { $schema: "https://json-schema.org/draft/2020-12/schema", type: "object", properties: { at: { type: "string", format: "date-time" } }, "x-owner": "billing" };
    const { problems, validator } = checkSchema(schema);
    expect(problems).toEqual([]);
    expect(validator!.check({ at: "not a date" })).toBeNull();
  });

  it("follows references within the schema ($defs, $id) and refuses any outside it, pointing at the $ref", () => {
    expect(problemsOf({ $defs: { money: { type: "integer" } }, properties: { a: { $ref: "#/$defs/money" } } })).toEqual([]);
    expect(problemsOf({ $id: "https://example.com/root", $defs: { b: { $id: "b", type: "string" } }, properties: { a: { $ref: "b" } } })).toEqual([]);
    expect(problemsOf({ properties: { a: { $ref: "https://example.com/a.json" } } })).toEqual([["/schema/properties/a/$ref", expect.stringMatching(/never fetched/)]]);
    expect(problemsOf({ items: { $ref: "#/$defs/missing" } })[0]![0]).toBe("/schema/items/$ref");
  });

  it("refuses patterns RE2 cannot run, wherever they are, and uniqueItems without a small maxItems", () => {
    expect(problemsOf({ properties: { a: { pattern: "(?<=x)y" } }, patternProperties: { "(a)\\1": {} }, propertyNames: { pattern: "^[a-z]+$" } })).toEqual([
      ["/schema/patternProperties/(a)\\1", expect.stringMatching(/RE2/)],
      ["/schema/properties/a/pattern", expect.stringMatching(/RE2/)],
    ]);
    // A `pattern` that is data (inside `const`) is not a pattern.
    expect(problemsOf({ const: { pattern: "(?=x)" } })).toEqual([]);
    expect(problemsOf({ type: "array", uniqueItems: true, maxItems: 5000 })).toEqual([["/schema/uniqueItems", expect.stringMatching(/maxItems/)]]);
    expect(problemsOf({ type: "array", uniqueItems: true, maxItems: 1000 })).toEqual([]);
  });

  it("bounds size and depth before anything else reads the schema", () => {
    expect(problemsOf({ description: "x".repeat(40_000) })).toEqual([["/schema", expect.stringMatching(/at most 32768/)]]);
    const deep = JSON.parse(`${'{"not":'.repeat(33)}{}${"}".repeat(33)}`) as Record<string, unknown>;
    expect(problemsOf(deep)[0]![1]).toMatch(/more than 32 deep/);
  });

  it("refuses what the meta-schema refuses and another draft's $schema, with pointers", () => {
    expect(problemsOf({ type: "object", properties: { a: { minimum: "one" } } })).toEqual([["/schema/properties/a/minimum", "must be number"]]);
    expect(problemsOf({ $schema: "http://json-schema.org/draft-07/schema#" })).toEqual([["/schema/$schema", expect.stringMatching(/2020-12/)]]);
  });

  it("stays fast on a small schema that refers to one large definition many times (references are not inlined past 8 keywords)", () => {
    const big = { type: "object", properties: Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`p${i}`, { type: "string", minLength: 1 }])) };
    const schema = { $defs: { big }, type: "object", properties: Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`r${i}`, { $ref: "#/$defs/big" }])) };
    const { validator } = checkSchema(schema);
    expect(validator!.check({ r0: { p0: "" } })).toEqual([{ pointer: "/r0/p0", message: "must NOT have fewer than 1 characters" }]);
  });
});

describe("compileSchema", () => {
  it("answers null for a valid payload, and each fault with its pointer (RFC 6901), at most MAX_VIOLATIONS", () => {
    const validator = compileSchema({ type: "object", properties: { "a/b": { type: "integer" }, list: { type: "array", items: { type: "string" } } }, required: ["id"], additionalProperties: { type: "integer" } });
    expect(validator.check({ id: 1, "a/b": 2, list: ["x"] })).toBeNull();
    expect(validator.check({ "a/b": "2", list: ["x", 3] })).toEqual([
      { pointer: "", message: "must have required property 'id': \"id\"" },
      { pointer: "/a~1b", message: "must be integer" },
      { pointer: "/list/1", message: "must be string" },
    ]);
    const many = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, "x"]));
    expect(validator.check({ id: 1, ...many })).toHaveLength(MAX_VIOLATIONS);
  });

  it("runs patterns on RE2: linear in the string, whatever the pattern", () => {
    const validator = compileSchema({ type: "string", pattern: "^(a+)+$" });
    expect(validator.check("a".repeat(100_000))).toBeNull();
    expect(validator.check(`${"a".repeat(100_000)}b`)).toEqual([{ pointer: "", message: 'must match pattern "^(a+)+$"' }]);
  });

  it("keeps two schemas with the same $id apart", () => {
    const a = compileSchema({ $id: "https://example.com/same", type: "string" });
    const b = compileSchema({ $id: "https://example.com/same", type: "integer" });
    expect(a.check("x")).toBeNull();
    expect(b.check(1)).toBeNull();
  });
});

describe("TypeScript", () => {
  it("names the payload's type for its event type", () => {
    expect(typeNameOf("invoice.paid")).toBe("InvoicePaid");
    expect(typeNameOf("user_created-v2")).toBe("UserCreatedV2");
    expect(typeNameOf("3d.printed")).toBe("Event3dPrinted");
  });

  it("makes declarations of a schema and its $defs, and never reads outside it", async () => {
    const source = await schemaTypeScript({ title: "Ignored", type: "object", required: ["total"], properties: { total: { $ref: "#/$defs/money" }, status: { enum: ["paid", "void"] } }, $defs: { money: { type: "object", properties: { value: { type: "integer" } } } } }, "invoice.paid", 2);
    expect(source).toContain("version 2 of its schema");
    expect(source).toContain("export interface InvoicePaid {");
    expect(source).toContain('status?: "paid" | "void";');
    expect(source).toContain("export interface Money {");
    await expect(schemaTypeScript({ properties: { a: { $ref: "https://example.com/a.json" } } }, "x", 1)).rejects.toMatchObject({ status: 422, code: "types_unavailable" });
    await expect(schemaTypeScript({ properties: { a: { $ref: "file:///etc/passwd" } } }, "x", 1)).rejects.toMatchObject({ status: 422 });
  });
});

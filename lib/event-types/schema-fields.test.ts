import { describe, expect, it } from "vitest";
import { schemaFields } from "./schema-fields";

const brief = (schema: unknown) =>
  schemaFields(schema).map((f) => {
    const who = f.name ?? (f.role.kind === "option" ? `${f.role.combinator}#${f.role.index}` : f.role.kind);
    return `${"  ".repeat(f.depth)}${who}: ${f.types.join("|") || "?"}${f.itemTypes.length ? `<${f.itemTypes.join("|")}>` : ""}${f.required ? " required" : ""}${f.values ? ` = ${f.values.join(",")}` : ""}${f.ref ? ` -> ${f.ref}` : ""}${f.combinator ? ` (${f.combinator})` : ""}`;
  });

describe("schemaFields", () => {
  it("lists an object's properties (alphabetically) with types, required and descriptions, nested objects indented", () => {
    const fields = schemaFields({
      type: "object",
      required: ["invoice", "amount"],
      properties: {
        invoice: { type: "object", required: ["id"], description: "The invoice paid.", properties: { id: { type: "string", format: "uuid" }, lines: { type: "array", items: { type: "string" } } } },
        amount: { type: "integer", description: "In the currency's minor unit." },
        currency: { type: ["string", "null"], enum: ["jpy", "usd", null] },
      },
    });
    expect(brief({ type: "object", required: ["invoice", "amount"], properties: { invoice: { type: "object", required: ["id"], properties: { id: { type: "string" }, lines: { type: "array", items: { type: "string" } } } }, amount: { type: "integer" }, currency: { type: ["string", "null"], enum: ["jpy", "usd", null] } } })).toEqual([
      "amount: integer required",
      'currency: string|null = "jpy","usd",null',
      "invoice: object required",
      "  id: string required",
      "  lines: array<string>",
    ]);
    expect(fields.find((f) => f.name === "invoice")?.description).toBe("The invoice paid.");
    expect(fields.find((f) => f.name === "id")?.format).toBe("uuid");
    expect(new Set(fields.map((f) => f.key)).size).toBe(fields.length);
  });

  it("shows array items that are objects, and a root that is not an object", () => {
    expect(brief({ type: "array", items: { type: "object", properties: { sku: { type: "string" }, qty: { type: "integer" } }, required: ["sku"] } })).toEqual([
      "root: array<object>",
      "  items: object",
      "    qty: integer",
      "    sku: string required",
    ]);
    expect(brief({ type: "string", enum: ["a", "b"] })).toEqual(['root: string = "a","b"']);
  });

  it("lists oneOf / anyOf options under their field, and infers types the schema leaves out", () => {
    expect(
      brief({
        properties: {
          source: { oneOf: [{ type: "object", properties: { card: { type: "string" } } }, { type: "object", properties: { bank: { type: "string" } } }] },
          note: { anyOf: [{ type: "string" }, { type: "null" }] },
          kind: { const: "refund" },
        },
      }),
    ).toEqual([
      'kind: string = "refund"',
      "note: ? (anyOf)",
      "  anyOf#1: string",
      "  anyOf#2: null",
      "source: ? (oneOf)",
      "  oneOf#1: object",
      "    card: string",
      "  oneOf#2: object",
      "    bank: string",
    ]);
  });

  it("follows local $refs once, and names a recursive or foreign one instead of following it", () => {
    expect(
      brief({
        $defs: { money: { type: "object", properties: { amount: { type: "integer" } } }, node: { type: "object", properties: { child: { $ref: "#/$defs/node" } } } },
        type: "object",
        properties: { total: { $ref: "#/$defs/money", description: "Total." }, tree: { $ref: "#/$defs/node" }, other: { $ref: "https://example.com/x.json" } },
      }),
    ).toEqual([
      "other: ? -> https://example.com/x.json",
      "total: object",
      "  amount: integer",
      "tree: object",
      "  child: ? -> #/$defs/node",
    ]);
  });

  it("tolerates anything that is not a schema", () => {
    expect(schemaFields(null)).toEqual([]);
    expect(schemaFields([1, 2])).toEqual([]);
    expect(brief({ type: "object", properties: { a: 5, b: { type: 7 }, c: null }, required: "a" })).toEqual(["b: ?"]);
    expect(brief({})).toEqual([]);
  });
});

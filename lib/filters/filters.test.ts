import { describe, expect, it } from "vitest";
import { checkFilter, filterDocument, filterProblems, InvalidFilterError, MAX_FILTER_BYTES, MAX_FILTER_CONDITIONS, matchesFilter } from ".";

const matches = (filter: object, payload: unknown, eventType = "invoice.paid") => {
  const checked = checkFilter(filter);
  return checked === null || matchesFilter(JSON.stringify(checked), filterDocument({ eventType, payload }));
};

describe("matchesFilter", () => {
  const invoice = { data: { amount: 1500, currency: "JPY", lines: [{ sku: "a" }, { sku: "b" }], tags: ["vip", "jp"], note: null } };

  it.each([
    [{ "data.amount": { $gte: 1000 }, "data.currency": { $in: ["JPY", "USD"] } }, true],
    [{ "data.amount": { $gt: 1500 } }, false],
    [{ "data.amount": { $lte: 1500, $gt: 1499 } }, true],
    [{ "data.amount": { $lt: 1500 } }, false],
    [{ "data.currency": "JPY" }, true],
    [{ "data.currency": { $eq: "USD" } }, false],
    [{ "data.currency": { $neq: "USD" } }, true],
    [{ "data.currency": { $nin: ["JPY"] } }, false],
    [{ "data.refund": { $exists: false } }, true],
    [{ "data.amount": { $exists: true } }, true],
    [{ "data.note": null }, true],
    // Arrays: a path through an array reads each element; a value matches an array holding it.
    [{ "data.lines.sku": "b" }, true],
    [{ "data.tags": "vip" }, true],
    [{ "data.tags": ["vip", "jp"] }, true],
    [{ "data.tags": { $in: ["none"] } }, false],
    [{ $or: [{ "data.amount": { $gt: 10_000 } }, { "data.currency": "JPY" }] }, true],
    [{ $and: [{ "data.amount": { $gt: 10_000 } }, { "data.currency": "JPY" }] }, false],
    [{ $not: { "data.currency": "JPY" } }, false],
    [{ "data.amount": { $not: { $gt: 2000 } } }, true],
    [{ event_type: "invoice.paid" }, true],
    [{ event_type: { $in: ["invoice.voided"] } }, false],
    // Types are not converted: a string is never greater than a number, nor true equal to 1.
    [{ "data.amount": { $gt: "1000" } }, false],
    [{ "data.amount": true }, false],
    [{}, true],
  ])("%j → %s", (filter, expected) => {
    expect(matches(filter, invoice)).toBe(expected);
  });

  it("reads the message's event type over a payload field of that name", () => {
    expect(matches({ event_type: "invoice.paid" }, { event_type: "something else" })).toBe(true);
  });

  it("reads a payload that is not an object as an empty one", () => {
    expect(matches({ "data.amount": { $exists: false } }, [1, 2])).toBe(true);
    expect(matches({ "data.amount": { $exists: true } }, "text")).toBe(false);
  });

  it("never runs code or a pattern, even given a filter that skipped the checks", () => {
    expect(() => matchesFilter(JSON.stringify({ $where: "true" }), filterDocument({ eventType: "a", payload: {} }))).toThrow(/Unsupported operation/);
    expect(() => matchesFilter(JSON.stringify({ a: { $regex: "(a+)+$" } }), filterDocument({ eventType: "a", payload: {} }))).toThrow(/Unsupported operation/);
  });
});

describe("checkFilter", () => {
  const problem = (filter: unknown) => filterProblems(filter)[0];

  it("takes null and {} as no filter and a good filter as it is", () => {
    expect(checkFilter(null)).toBeNull();
    expect(checkFilter({})).toBeNull();
    const filter = { "data.amount": { $gte: 1000 }, $or: [{ event_type: "a" }, { "data.x": { $exists: true } }] };
    expect(checkFilter(filter)).toEqual(filter);
  });

  it.each([
    ["not an object", [1], "/filter", /must be an object, not an array/],
    ["a string", "x", "/filter", /not a string/],
    ["an unknown operator", { a: { $foo: 1 } }, "/filter/a/$foo", /unknown operator "\$foo"/],
    ["an unknown top-level operator", { $nor: [{ a: 1 }] }, "/filter/$nor", /unknown operator "\$nor"/],
    ["a regex", { a: { $regex: "x" } }, "/filter/a/$regex", /regular expressions are not allowed/],
    ["a top-level regex", { $regex: "x" }, "/filter/$regex", /regular expressions are not allowed/],
    ["$where", { $where: "true" }, "/filter/$where", /unknown operator/],
    ["$gt on a boolean", { a: { $gt: true } }, "/filter/a/$gt", /\$gt takes a number or a string, not a boolean/],
    ["$lte on an object", { a: { $lte: {} } }, "/filter/a/$lte", /not an object/],
    ["$in not an array", { a: { $in: "x" } }, "/filter/a/$in", /\$in takes an array, not a string/],
    ["$exists not a boolean", { a: { $exists: 1 } }, "/filter/a/$exists", /true or false/],
    ["$and not an array", { $and: { a: 1 } }, "/filter/$and", /non-empty array/],
    ["$or empty", { $or: [] }, "/filter/$or", /non-empty array/],
    ["$or with a scalar", { $or: [{ a: 1 }, 2] }, "/filter/$or/1", /must be a filter object, not a number/],
    ["field $not with a value", { a: { $not: 3 } }, "/filter/a/$not", /operator object/],
    ["top-level $not with an array", { $not: [] }, "/filter/$not", /filter object, not an array/],
    ["operators mixed with fields", { a: { $gt: 1, b: 2 } }, "/filter/a/b", /a field among operators/],
    ["an operator inside a value", { a: { b: { $gt: 1 } } }, "/filter/a/b/$gt", /dotted path/],
    ["an empty path segment", { "a..b": 1 }, "/filter/a..b", /not a dotted path/],
    ["an empty path", { "": 1 }, "/filter/", /not a dotted path/],
    ["an inherited name", { "data.constructor.name": "Object" }, "/filter/data.constructor.name", /every object inherits/],
    ["__proto__", JSON.parse('{"__proto__.x": 1}'), "/filter/__proto__.x", /every object inherits/],
    ["a pointer's special characters", { "a/b~c": { $bad: 1 } }, "/filter/a~1b~0c/$bad", /unknown operator/],
  ])("refuses %s, pointing at it", (_what, filter, pointer, message) => {
    const found = problem(filter);
    expect(found).toMatchObject({ path: "filter", pointer });
    expect(found!.message).toMatch(message);
  });

  it(`counts at most ${MAX_FILTER_CONDITIONS} conditions`, () => {
    const conditions = (n: number) => ({ $and: Array.from({ length: n }, (_, i) => ({ [`data.f${i}`]: i })) });
    expect(filterProblems(conditions(MAX_FILTER_CONDITIONS))).toEqual([]);
    expect(problem(conditions(MAX_FILTER_CONDITIONS + 1))).toMatchObject({ pointer: `/filter/$and/${MAX_FILTER_CONDITIONS}/data.f${MAX_FILTER_CONDITIONS}`, message: expect.stringMatching(/more than 50 conditions/) });
    // Each operator of a field counts.
    expect(filterProblems({ a: Object.fromEntries(["$gt", "$lt", "$neq"].map((op) => [op, 1])) })).toEqual([]);
  });

  it("allows 10 objects deep and refuses 11, wherever they nest", () => {
    const nested = (levels: number): object => (levels === 1 ? { a: 1 } : { $not: nested(levels - 1) });
    expect(filterProblems(nested(10))).toEqual([]);
    expect(problem(nested(11))!.message).toMatch(/more than 10 objects deep/);
    // In a value too, and without walking the rest of a hostile one.
    let value: object = { x: 1 };
    for (let i = 0; i < 500; i++) value = { x: value };
    expect(problem({ a: { $eq: value } })!.message).toMatch(/more than 10 objects deep/);
  });

  it(`refuses more than ${MAX_FILTER_BYTES} bytes, counted in UTF-8`, () => {
    const sized = (text: string) => ({ a: text });
    const overhead = JSON.stringify(sized("")).length;
    expect(filterProblems(sized("x".repeat(MAX_FILTER_BYTES - overhead)))).toEqual([]);
    expect(problem(sized("x".repeat(MAX_FILTER_BYTES - overhead + 1)))!.message).toMatch(/at most 4096/);
    expect(problem(sized("あ".repeat(Math.ceil((MAX_FILTER_BYTES - overhead) / 3) + 1)))).toMatchObject({ pointer: "/filter" });
  });

  it("throws InvalidFilterError, 422 invalid_filter, with every fault", () => {
    const error = (() => {
      try {
        checkFilter({ a: { $foo: 1 }, b: { $gt: [] } });
      } catch (e) {
        return e;
      }
    })() as InvalidFilterError;
    expect(error).toBeInstanceOf(InvalidFilterError);
    expect(error).toMatchObject({ status: 422, code: "invalid_filter" });
    expect(error.errors!.map((e) => e.pointer)).toEqual(["/filter/a/$foo", "/filter/b/$gt"]);
    expect(error.message).toMatch(/unknown operator "\$foo".*\(and 1 more\)\.$/);
  });
});

import { Value } from "@sinclair/typebox/value";
import { describe, expect, it } from "vitest";
import { checkableSchema } from "../../../plugins/integrations/mcp/json-schema.js";

/** The loop's own validation: Value.Check, then the first errors' paths and messages. */
function problems(schema: unknown, value: unknown): string[] {
  const checkable = checkableSchema(schema);
  if (Value.Check(checkable, value)) return [];
  return [...Value.Errors(checkable, value)].slice(0, 3).map((e) => `${e.path || "/"}: ${e.message}`);
}

describe("JSON Schema made checkable for the loop's Value.Check", () => {
  it("serializes exactly as the server wrote it, so the model sees the original schema", () => {
    const original = {
      type: "object",
      properties: {
        data: { type: "string", format: "uri" },
        mode: { enum: ["a", "b"] },
        n: { type: ["integer", "null"] },
      },
      required: ["data"],
      additionalProperties: false,
      $schema: "http://json-schema.org/draft-07/schema#",
    };
    expect(JSON.parse(JSON.stringify(checkableSchema(original)))).toEqual(original);
    expect(Object.keys(checkableSchema(original))).toEqual(Object.keys(original));
  });

  it("checks types, required properties and additionalProperties: false with precise messages", () => {
    const schema = {
      type: "object",
      properties: { message: { type: "string" }, count: { type: "integer", minimum: 1 } },
      required: ["message"],
      additionalProperties: false,
    };
    expect(problems(schema, { message: "hi" })).toEqual([]);
    expect(problems(schema, { message: "hi", count: 2 })).toEqual([]);
    expect(problems(schema, {})[0]).toMatch(/^\/message: Expected required property/);
    expect(problems(schema, { message: 5 })[0]).toBe("/message: Expected string");
    expect(problems(schema, { message: "hi", count: 0 })[0]).toMatch(
      /^\/count: Expected integer to be greater or equal to 1/,
    );
    expect(problems(schema, { message: "hi", count: 1.5 })[0]).toBe("/count: Expected integer");
    expect(problems(schema, { message: "hi", extra: true })).not.toEqual([]);
  });

  it("enum, const, type arrays, anyOf/oneOf/allOf and not", () => {
    expect(problems({ enum: ["name", "size"] }, "size")).toEqual([]);
    expect(problems({ type: "string", enum: ["name", "size"] }, "date")).not.toEqual([]);
    expect(problems({ const: 3 }, 3)).toEqual([]);
    expect(problems({ const: 3 }, 4)).not.toEqual([]);
    expect(problems({ type: ["string", "null"] }, null)).toEqual([]);
    expect(problems({ type: ["string", "null"] }, 1)).not.toEqual([]);
    const either = { anyOf: [{ type: "string" }, { type: "number" }] };
    expect(problems(either, 1)).toEqual([]);
    expect(problems(either, true)).not.toEqual([]);
    expect(problems({ oneOf: [{ type: "string" }, { type: "boolean" }] }, false)).toEqual([]);
    const both = {
      allOf: [
        { type: "object", required: ["a"] },
        { type: "object", required: ["b"] },
      ],
    };
    expect(problems(both, { a: 1, b: 2 })).toEqual([]);
    expect(problems(both, { a: 1 })).not.toEqual([]);
    expect(problems({ not: { type: "string" } }, 1)).toEqual([]);
    expect(problems({ not: { type: "string" } }, "x")).not.toEqual([]);
  });

  it("arrays: items, bounds, uniqueness; objects: nested, additionalProperties schemas, pattern properties", () => {
    const list = { type: "array", items: { type: "string" }, minItems: 1, uniqueItems: true };
    expect(problems(list, ["a", "b"])).toEqual([]);
    expect(problems(list, [])).not.toEqual([]);
    expect(problems(list, ["a", "a"])).not.toEqual([]);
    expect(problems(list, ["a", 1])[0]).toBe("/1: Expected string");
    const edits = {
      type: "object",
      properties: {
        edits: {
          type: "array",
          items: { type: "object", properties: { oldText: { type: "string" } }, required: ["oldText"] },
        },
      },
    };
    expect(problems(edits, { edits: [{ oldText: "x" }] })).toEqual([]);
    expect(problems(edits, { edits: [{}] })[0]).toMatch(/^\/edits\/0\/oldText: Expected required property/);
    const map = { type: "object", additionalProperties: { type: "number" } };
    expect(problems(map, { a: 1 })).toEqual([]);
    expect(problems(map, { a: "1" })).not.toEqual([]);
    const patterned = { type: "object", patternProperties: { "^x-": { type: "string" } } };
    expect(problems(patterned, { "x-a": "1", other: 2 })).toEqual([]);
    expect(problems(patterned, { "x-a": 1 })).not.toEqual([]);
  });

  it("string bounds and patterns are checked; formats are not (TypeBox would refuse unknown ones)", () => {
    expect(problems({ type: "string", pattern: "^[a-z]+$", maxLength: 3 }, "abc")).toEqual([]);
    expect(problems({ type: "string", pattern: "^[a-z]+$" }, "ABC")).not.toEqual([]);
    expect(problems({ type: "string", maxLength: 3 }, "abcd")).not.toEqual([]);
    expect(problems({ type: "string", format: "uri" }, "not a uri but a string")).toEqual([]);
    expect(problems({ type: "string", format: "uri" }, 5)).not.toEqual([]);
    expect(problems({ type: "string", pattern: "(" }, "anything")).toEqual([]);
  });

  it("local $refs resolve; recursive ones stop accepting anything below the cycle", () => {
    const schema = {
      type: "object",
      properties: { point: { $ref: "#/$defs/point" } },
      $defs: { point: { type: "object", properties: { x: { type: "number" } }, required: ["x"] } },
    };
    expect(problems(schema, { point: { x: 1 } })).toEqual([]);
    expect(problems(schema, { point: {} })).not.toEqual([]);
    const tree = {
      type: "object",
      properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "#" } } },
      required: ["name"],
    };
    expect(problems(tree, { name: "a", children: [{ name: "b", children: [{ anything: true }] }] })).toEqual([]);
    expect(problems(tree, { name: 1 })).not.toEqual([]);
  });

  it("draft-04 boolean exclusive bounds", () => {
    const schema = { type: "number", minimum: 0, exclusiveMinimum: true, maximum: 10, exclusiveMaximum: true };
    expect(problems(schema, 5)).toEqual([]);
    expect(problems(schema, 0)).not.toEqual([]);
    expect(problems(schema, 10)).not.toEqual([]);
  });

  it("a root allOf is checked", () => {
    const schema = { allOf: [{ type: "object", properties: { a: { type: "string" } }, required: ["a"] }] };
    expect(problems(schema, { a: "x" })).toEqual([]);
    expect(problems(schema, {})).not.toEqual([]);
  });

  it("refuses a schema that is not an object, in one line", () => {
    expect(() => checkableSchema("object")).toThrow("an input schema must be a JSON object, got string");
    expect(() => checkableSchema([])).toThrow("got an array");
  });
});

describe("the wrapper around schemas with their own $defs", () => {
  it("keeps the original $defs in the JSON and still checks through them", () => {
    const original = {
      type: "object",
      properties: { p: { $ref: "#/$defs/p" } },
      required: ["p"],
      $defs: { p: { type: "string" } },
    };
    const schema = checkableSchema(original);
    expect(JSON.parse(JSON.stringify(schema))).toEqual(original);
    expect(Value.Check(schema, { p: "x" })).toBe(true);
    expect([...Value.Errors(schema, { p: 1 })].map((e) => `${e.path}: ${e.message}`)).toEqual(["/p: Expected string"]);
  });
});

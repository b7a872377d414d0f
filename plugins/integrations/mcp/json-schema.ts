/**
 * MCP servers describe tool inputs in plain JSON Schema, but the agent loop (and codemode) validate
 * arguments with TypeBox's `Value.Check`, which only understands schemas tagged with TypeBox's `Kind`
 * symbol. This file turns a JSON Schema into a TypeBox-checkable schema, so an MCP tool's arguments are
 * really validated before the call leaves the process — not waved through.
 *
 * The model must still see the server's schema exactly as the server wrote it. `checkableSchema`
 * therefore returns a copy of the original (every enumerable key untouched, so providers serialize the
 * same JSON) tagged as a TypeBox `Import` whose target — reached through non-enumerable `$ref` and
 * `$defs` entries — is the converted schema; `Value.Check` and `Value.Errors` go straight to it, so the
 * loop reports the converted schema's own precise errors.
 *
 * Known approximations (validation is looser, never stricter, than JSON Schema): `oneOf` is checked as
 * `anyOf`; tuples (`prefixItems`, array `items`) and `patternProperties` check only what TypeBox can
 * express; `if`/`then`/`else`, `dependentRequired` and `propertyNames` are not checked; an unresolvable
 * or recursive `$ref` accepts any value; `format` is not checked (TypeBox refuses unknown formats).
 */
import { Kind, type TSchema } from "@sinclair/typebox";

type JsonObject = Record<string, unknown>;

/** Where `$ref`s resolve: the document root and the refs being expanded (to stop at recursion). */
interface RefScope {
  root: unknown;
  expanding: Set<string>;
}

/**
 * A schema that serializes as `jsonSchema` and validates with TypeBox's `Value.Check`. Throws one line
 * when the input is not a JSON Schema object.
 */
export function checkableSchema(jsonSchema: unknown): TSchema {
  if (!isObject(jsonSchema)) throw new Error(`an input schema must be a JSON object, got ${describe(jsonSchema)}`);
  const checked = convert(jsonSchema, { root: jsonSchema, expanding: new Set() });
  if ("$ref" in jsonSchema || ("$defs" in jsonSchema && !isObject(jsonSchema.$defs))) {
    // The wrapper's hidden `$ref` would collide with the original's; the converted schema is valid
    // JSON Schema too, so it serves as both (rare: MCP tool inputs are plain objects).
    return checked;
  }
  const wrapper: JsonObject = structuredClone(jsonSchema);
  const defs: JsonObject = isObject(wrapper.$defs) ? wrapper.$defs : {};
  Object.defineProperty(defs, CHECKED_KEY, { value: checked, enumerable: false });
  if (!("$defs" in wrapper)) Object.defineProperty(wrapper, "$defs", { value: defs, enumerable: false });
  Object.defineProperty(wrapper, "$ref", { value: CHECKED_KEY, enumerable: false });
  Object.defineProperty(wrapper, Kind, { value: "Import", enumerable: false });
  return wrapper as unknown as TSchema;
}

/** The hidden `$defs` entry holding the converted schema. */
const CHECKED_KEY = "pi-host:checked";

/** Converts one JSON Schema node into a fresh TypeBox-tagged schema. */
function convert(node: unknown, scope: RefScope): TSchema {
  if (node === true || (isObject(node) && Object.keys(node).length === 0)) return tag("Any", {});
  if (node === false) return tag("Never", {});
  if (!isObject(node)) return tag("Any", {});
  if (typeof node.$ref === "string") return convertRef(node.$ref, scope);

  const parts: TSchema[] = [];
  const typePart = convertTypes(node, scope);
  if (typePart !== undefined) parts.push(typePart);
  if (Array.isArray(node.enum)) parts.push(literalUnion(node.enum));
  if ("const" in node) parts.push(literalUnion([node.const]));
  if (Array.isArray(node.anyOf)) parts.push(tag("Union", { anyOf: node.anyOf.map((n) => convert(n, scope)) }));
  if (Array.isArray(node.oneOf)) parts.push(tag("Union", { anyOf: node.oneOf.map((n) => convert(n, scope)) }));
  if (Array.isArray(node.allOf)) parts.push(...node.allOf.map((n) => convert(n, scope)));
  if ("not" in node) parts.push(tag("Not", { not: convert(node.not, scope) }));

  if (parts.length === 0) return tag("Any", {});
  if (parts.length === 1) return parts[0]!;
  return tag("Intersect", { allOf: parts });
}

/** Inlines a local reference (`#`, `#/$defs/x`, `#/definitions/x`, any JSON pointer into the root). */
function convertRef(ref: string, scope: RefScope): TSchema {
  if (scope.expanding.has(ref) || !ref.startsWith("#")) return tag("Any", {});
  const target = resolvePointer(scope.root, ref.slice(1));
  if (target === undefined) return tag("Any", {});
  scope.expanding.add(ref);
  try {
    return convert(target, scope);
  } finally {
    scope.expanding.delete(ref);
  }
}

function resolvePointer(root: unknown, pointer: string): unknown {
  if (pointer === "" || pointer === "/") return root;
  let current: unknown = root;
  for (const raw of pointer.split("/").slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (!isObject(current) && !Array.isArray(current)) return undefined;
    current = (current as JsonObject)[key];
  }
  return current;
}

/** The part of a node its `type` (or, without one, its object/array keywords) asks for. */
function convertTypes(node: JsonObject, scope: RefScope): TSchema | undefined {
  let types: string[];
  if (typeof node.type === "string") types = [node.type];
  else if (Array.isArray(node.type)) types = node.type.filter((t): t is string => typeof t === "string");
  else if (isObject(node.properties) || Array.isArray(node.required) || isObject(node.additionalProperties))
    types = ["object"];
  else if ("items" in node || "prefixItems" in node) types = ["array"];
  else return undefined;
  const converted = types.map((type) => convertType(type, node, scope));
  if (converted.length === 0) return undefined;
  return converted.length === 1 ? converted[0] : tag("Union", { anyOf: converted });
}

function convertType(type: string, node: JsonObject, scope: RefScope): TSchema {
  switch (type) {
    case "string":
      return tag("String", {
        ...pick(node, ["minLength", "maxLength"], isNumber),
        ...(typeof node.pattern === "string" && isValidPattern(node.pattern) && { pattern: node.pattern }),
      });
    case "number":
      return tag("Number", numberBounds(node));
    case "integer":
      return tag("Integer", numberBounds(node));
    case "boolean":
      return tag("Boolean", {});
    case "null":
      return tag("Null", {});
    case "object":
      return convertObject(node, scope);
    case "array":
      return convertArray(node, scope);
    default:
      return tag("Any", {});
  }
}

/** Numeric bounds, with draft-04's boolean `exclusiveMinimum`/`exclusiveMaximum` turned into numbers. */
function numberBounds(node: JsonObject): JsonObject {
  const bounds: JsonObject = pick(node, ["minimum", "maximum", "multipleOf"], isNumber);
  if (isNumber(node.exclusiveMinimum)) bounds.exclusiveMinimum = node.exclusiveMinimum;
  else if (node.exclusiveMinimum === true && isNumber(node.minimum)) {
    bounds.exclusiveMinimum = node.minimum;
    delete bounds.minimum;
  }
  if (isNumber(node.exclusiveMaximum)) bounds.exclusiveMaximum = node.exclusiveMaximum;
  else if (node.exclusiveMaximum === true && isNumber(node.maximum)) {
    bounds.exclusiveMaximum = node.maximum;
    delete bounds.maximum;
  }
  return bounds;
}

function convertObject(node: JsonObject, scope: RefScope): TSchema {
  const properties: Record<string, TSchema> = {};
  if (isObject(node.properties)) {
    for (const [key, value] of Object.entries(node.properties)) properties[key] = convert(value, scope);
  }
  const required = Array.isArray(node.required) ? node.required.filter((k): k is string => typeof k === "string") : [];
  // TypeBox checks `required` only for keys it has a property schema for.
  for (const key of required) properties[key] ??= tag("Any", {});
  const patterns = isObject(node.patternProperties)
    ? Object.entries(node.patternProperties).filter(([p]) => isValidPattern(p))
    : [];
  const object: JsonObject = {
    properties,
    ...pick(node, ["minProperties", "maxProperties"], isNumber),
    ...(required.length > 0 && { required }),
  };
  // With pattern properties, `additionalProperties` would also reject the keys the patterns allow.
  if (patterns.length === 0) {
    if (node.additionalProperties === false) object.additionalProperties = false;
    else if (isObject(node.additionalProperties))
      object.additionalProperties = convert(node.additionalProperties, scope);
  }
  const checked = tag("Object", object);
  if (patterns.length === 0) return checked;
  const records = patterns.map(([pattern, schema]) =>
    tag("Record", { patternProperties: { [pattern]: convert(schema, scope) } }),
  );
  return tag("Intersect", { allOf: [checked, ...records] });
}

function convertArray(node: JsonObject, scope: RefScope): TSchema {
  const tuple = Array.isArray(node.items) || Array.isArray(node.prefixItems);
  return tag("Array", {
    items: tuple || !("items" in node) ? tag("Any", {}) : convert(node.items, scope),
    ...pick(node, ["minItems", "maxItems", "minContains", "maxContains"], isNumber),
    ...(node.uniqueItems === true && { uniqueItems: true }),
    ...("contains" in node && { contains: convert(node.contains, scope) }),
  });
}

/** `enum`/`const` values: a union of literals, or anything when a value is not a primitive. */
function literalUnion(values: unknown[]): TSchema {
  if (!values.every((v) => v === null || ["string", "number", "boolean"].includes(typeof v))) return tag("Any", {});
  const literals = values.map((v) => (v === null ? tag("Null", {}) : tag("Literal", { const: v })));
  return literals.length === 1 ? literals[0]! : tag("Union", { anyOf: literals });
}

function tag(kind: string, schema: JsonObject): TSchema {
  return Object.assign(schema, { [Kind]: kind }) as unknown as TSchema;
}

function pick(node: JsonObject, keys: string[], keep: (value: unknown) => boolean): JsonObject {
  const out: JsonObject = {};
  for (const key of keys) if (keep(node[key])) out[key] = node[key];
  return out;
}

function isValidPattern(pattern: string): boolean {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}

function isNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function describe(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
}

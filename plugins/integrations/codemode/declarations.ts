/**
 * TypeScript declarations of the tools a codemode script may call, generated from their JSON Schemas
 * (TypeBox schemas are JSON Schema too). Models write far better code against a typed API than against
 * prose, and the declarations double as the tools' documentation inside the `codemode` description.
 */

type Json = Record<string, unknown>;

/** One callable tool as the declarations show it. */
export interface DeclaredTool {
  /** The identifier inside the sandbox's `tools` object. */
  ident: string;
  /** The tool's real name, when it differs from `ident`. */
  name: string;
  description: string;
  parameters: unknown;
}

const MAX_DEPTH = 8;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `declare const tools: { ... }` for every tool, each with its doc comment and argument type. */
export function toolDeclarations(tools: DeclaredTool[]): string {
  const members = tools.map((tool) => {
    // The JSON view is what the model sees of the schema; it also drops TypeBox's symbols and any
    // hidden validation-only keys a plugin attached.
    const schema: unknown = JSON.parse(JSON.stringify(tool.parameters ?? {}));
    const args = typeOf(schema, schema, 1, new Set());
    const optional = !hasRequired(schema);
    const alias = tool.ident === tool.name ? "" : `(tool "${tool.name}") `;
    return `${docComment(`${alias}${tool.description}`, "  ")}  ${tool.ident}(args${optional ? "?" : ""}: ${args}): Promise<string>;`;
  });
  return `declare const tools: {\n${members.join("\n")}\n};`;
}

/** A sandbox identifier for a tool name: invalid characters become `_`; `taken` keeps them unique. */
export function identifierFor(name: string, taken: Set<string>): string {
  let ident = name.replace(/[^A-Za-z0-9_$]/g, "_");
  if (!IDENTIFIER.test(ident)) ident = `_${ident}`;
  let unique = ident;
  for (let n = 2; taken.has(unique); n++) unique = `${ident}_${n}`;
  taken.add(unique);
  return unique;
}

function hasRequired(schema: unknown): boolean {
  return isObject(schema) && Array.isArray(schema.required) && schema.required.length > 0;
}

/** The TypeScript type of a schema node; `unknown` where the schema says nothing usable. */
function typeOf(node: unknown, root: unknown, depth: number, expanding: Set<string>): string {
  if (node === true || node === undefined) return "unknown";
  if (node === false) return "never";
  if (!isObject(node) || depth > MAX_DEPTH) return "unknown";
  if (typeof node.$ref === "string") {
    const ref = node.$ref;
    const target = ref.startsWith("#") && !expanding.has(ref) ? resolvePointer(root, ref.slice(1)) : undefined;
    if (target === undefined) return "unknown";
    expanding.add(ref);
    try {
      return typeOf(target, root, depth, expanding);
    } finally {
      expanding.delete(ref);
    }
  }
  if ("const" in node) return literal(node.const);
  if (Array.isArray(node.enum)) return node.enum.map(literal).join(" | ") || "never";
  const unionOf = (Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : undefined) as
    | unknown[]
    | undefined;
  if (unionOf !== undefined)
    return group(
      unionOf.map((n) => typeOf(n, root, depth, expanding)),
      " | ",
    );
  if (Array.isArray(node.allOf))
    return group(
      node.allOf.map((n) => typeOf(n, root, depth, expanding)),
      " & ",
    );
  if (Array.isArray(node.type))
    return group(
      node.type.map((t) => typeOf({ ...node, type: t }, root, depth, expanding)),
      " | ",
    );
  switch (node.type) {
    case "string":
      return "string";
    case "number":
    case "integer":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array":
      return arrayType(node, root, depth, expanding);
    case "object":
      return objectType(node, root, depth, expanding);
    default:
      if (isObject(node.properties)) return objectType(node, root, depth, expanding);
      if ("items" in node) return arrayType(node, root, depth, expanding);
      return "unknown";
  }
}

/** An array's element type sits at the array's own indentation (`Array<{ ... }>` closes where it opened). */
function arrayType(node: Json, root: unknown, depth: number, expanding: Set<string>): string {
  if (Array.isArray(node.prefixItems))
    return `[${node.prefixItems.map((n) => typeOf(n, root, depth, expanding)).join(", ")}]`;
  if (Array.isArray(node.items)) return `[${node.items.map((n) => typeOf(n, root, depth, expanding)).join(", ")}]`;
  const item = typeOf(node.items, root, depth, expanding);
  return /^[\w.$]+$/.test(item) ? `${item}[]` : `Array<${item}>`;
}

function objectType(node: Json, root: unknown, depth: number, expanding: Set<string>): string {
  const properties = isObject(node.properties) ? node.properties : {};
  const required = new Set(
    Array.isArray(node.required) ? node.required.filter((k): k is string => typeof k === "string") : [],
  );
  const indent = "  ".repeat(depth + 1);
  const lines: string[] = [];
  for (const [key, schema] of Object.entries(properties)) {
    const doc = isObject(schema) ? propertyDoc(schema) : "";
    const name = IDENTIFIER.test(key) ? key : JSON.stringify(key);
    lines.push(
      `${docComment(doc, indent)}${indent}${name}${required.has(key) ? "" : "?"}: ${typeOf(schema, root, depth + 1, expanding)};`,
    );
  }
  if (isObject(node.additionalProperties))
    lines.push(`${indent}[key: string]: ${typeOf(node.additionalProperties, root, depth + 1, expanding)};`);
  if (lines.length === 0) return node.additionalProperties === false ? "{}" : "Record<string, unknown>";
  return `{\n${lines.join("\n")}\n${"  ".repeat(depth)}}`;
}

/** A property's description plus what its type does not say (default, format, bounds). */
function propertyDoc(schema: Json): string {
  const notes: string[] = [];
  if (typeof schema.format === "string") notes.push(`format: ${schema.format}`);
  for (const key of ["minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems", "pattern"]) {
    if (schema[key] !== undefined) notes.push(`${key}: ${JSON.stringify(schema[key])}`);
  }
  if (schema.default !== undefined) notes.push(`default: ${JSON.stringify(schema.default)}`);
  const description = typeof schema.description === "string" ? schema.description : "";
  return [description, notes.length > 0 ? `(${notes.join("; ")})` : ""].filter(Boolean).join(" ");
}

function docComment(text: string, indent: string): string {
  const lines = text.trim().replace(/\*\//g, "* /").split("\n");
  if (lines.length === 1 && lines[0] === "") return "";
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((l) => `${indent} * ${l}`.trimEnd()).join("\n")}\n${indent} */\n`;
}

function group(types: string[], separator: string): string {
  const unique = [...new Set(types)];
  if (unique.length === 0) return "unknown";
  if (unique.length === 1) return unique[0]!;
  return unique.map((t) => (t.includes("\n") || !t.includes(" ") ? t : `(${t})`)).join(separator);
}

function literal(value: unknown): string {
  return value === null || ["string", "number", "boolean"].includes(typeof value) ? JSON.stringify(value) : "unknown";
}

function resolvePointer(root: unknown, pointer: string): unknown {
  let current: unknown = root;
  for (const raw of pointer.split("/").slice(1)) {
    if (!isObject(current)) return undefined;
    current = current[decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~")];
  }
  return current;
}

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

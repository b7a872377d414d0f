/**
 * Extension tools as a tool source: listed before every turn (so a tool registered mid-session is
 * offered at the next request) and run by name with pi's ExtensionContext as the fifth argument. As in
 * pi, a tool signals failure by throwing; a returned result is never an error result. A tool named like
 * a tool plugin's tool replaces it for the model (pi's "Overriding Built-in Tools").
 */
import { Kind, type TSchema } from "@sinclair/typebox";
import type { ToolResult, ToolSource, ToolSpecOf } from "pi-host";
import type { ExtensionRuntime } from "./runtime.js";

/** The tool source of one plugin generation. */
export function createExtensionToolSource(runtime: ExtensionRuntime): ToolSource {
  return {
    async listTools(): Promise<ToolSpecOf[]> {
      await runtime.ensureLoaded();
      const active = runtime.activeTools;
      const specs: ToolSpecOf[] = [];
      for (const { definition } of runtime.tools().values()) {
        if (active !== undefined && !active.has(definition.name)) continue;
        specs.push({
          name: definition.name,
          label: definition.label,
          description: definition.description,
          parameters: checkableParameters(definition.parameters),
          guidelines: definition.promptGuidelines,
          executionMode: definition.executionMode,
          prepareArguments: definition.prepareArguments,
          ...(runtime.services.tools.find(definition.name) !== undefined && { replacesBuiltin: true }),
        });
      }
      return specs;
    },

    async executeTool(name, toolCallId, params, signal, onUpdate, toolContext): Promise<ToolResult> {
      await runtime.ensureLoaded();
      const found = runtime.tools().get(name);
      if (found === undefined) throw new Error(`no extension registers a tool "${name}" (any more)`);
      runtime.useFileLock(toolContext.withFileLock);
      const result = (await found.definition.execute(toolCallId, params, signal, onUpdate, runtime.context())) as
        | Partial<ToolResult>
        | undefined;
      if (result === null || typeof result !== "object" || !Array.isArray(result.content)) {
        throw new Error(
          `extension tool "${name}" returned no result with a content array ({ content: [{ type: "text", text }] })`,
        );
      }
      return {
        content: result.content,
        details: result.details,
        ...(result.terminate === true && { terminate: true }),
      };
    },
  };
}

/**
 * The loop validates arguments with TypeBox 0.34's `Value.Check`, which throws on `Type.Unsafe` nodes —
 * what pi's `StringEnum` and JSON-schema escape hatches build. Such a schema is sent to the model
 * unchanged but checked through a copy: the returned wrapper serializes exactly like the original and
 * points TypeBox, through hidden `$defs`/`$ref` entries, at a copy where each string enum is a union of
 * its literals and any other unsafe node accepts any value. Every other schema is returned as it is.
 */
export function checkableParameters(schema: TSchema): TSchema {
  if (!containsUnsafe(schema, new Set())) return schema;
  const wrapper: Record<string | symbol, unknown> = { ...(schema as object) };
  Object.defineProperty(wrapper, "$defs", { value: { [CHECKED]: checkedCopy(schema) }, enumerable: false });
  Object.defineProperty(wrapper, "$ref", { value: CHECKED, enumerable: false });
  Object.defineProperty(wrapper, Kind, { value: "Import", enumerable: false });
  return wrapper as unknown as TSchema;
}

const CHECKED = "pi-extensions:checked";

/** A copy of a schema tree with every unsafe node replaced by what TypeBox can check. */
function checkedCopy(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(checkedCopy);
  if (node === null || typeof node !== "object") return node;
  const source = node as Record<string | symbol, unknown>;
  const out: Record<string | symbol, unknown> = {};
  for (const symbol of Object.getOwnPropertySymbols(source)) out[symbol] = source[symbol];
  if (source[Kind] === "Unsafe") {
    const values = source.enum;
    if (
      Array.isArray(values) &&
      values.every((v) => typeof v === "string" || typeof v === "number" || typeof v === "boolean")
    ) {
      return Object.assign(out, {
        [Kind]: "Union",
        anyOf: values.map((value) => ({ [Kind]: "Literal", const: value, type: typeof value })),
      });
    }
    return Object.assign(out, { [Kind]: "Any" });
  }
  for (const key of Object.getOwnPropertyNames(source)) out[key] = checkedCopy(source[key]);
  return out;
}

function containsUnsafe(node: unknown, seen: Set<unknown>): boolean {
  if (node === null || typeof node !== "object" || seen.has(node)) return false;
  seen.add(node);
  if ((node as Record<symbol, unknown>)[Kind] === "Unsafe") return true;
  const children = Array.isArray(node) ? node : Object.values(node as object);
  return children.some((child) => containsUnsafe(child, seen));
}

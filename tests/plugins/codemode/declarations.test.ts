import { Type } from "@sinclair/typebox";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { identifierFor, toolDeclarations } from "../../../plugins/integrations/codemode/declarations.js";
import { checkableSchema } from "../../../plugins/integrations/mcp/json-schema.js";

/** TypeScript's own verdict on the generated text: syntax errors, if any. */
function syntaxErrors(source: string): string[] {
  const out = ts.transpileModule(source, {
    reportDiagnostics: true,
    compilerOptions: { target: ts.ScriptTarget.ES2022 },
  });
  return (out.diagnostics ?? []).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}

describe("TypeScript declarations of tools", () => {
  it("turns TypeBox schemas into typed members with doc comments", () => {
    const text = toolDeclarations([
      {
        ident: "read",
        name: "read",
        description: "Read a file.",
        parameters: Type.Object({
          path: Type.String({ description: "The file" }),
          offset: Type.Optional(Type.Integer({ minimum: 1 })),
          mode: Type.Optional(Type.Union([Type.Literal("text"), Type.Literal("bytes")])),
        }),
      },
      { ident: "ping", name: "ping", description: "Line one.\nLine two.", parameters: Type.Object({}) },
    ]);
    expect(text).toBe(
      [
        "declare const tools: {",
        "  /** Read a file. */",
        "  read(args: {",
        "    /** The file */",
        "    path: string;",
        "    /** (minimum: 1) */",
        "    offset?: number;",
        '    mode?: "text" | "bytes";',
        "  }): Promise<string>;",
        "  /**",
        "   * Line one.",
        "   * Line two.",
        "   */",
        "  ping(args?: Record<string, unknown>): Promise<string>;",
        "};",
      ].join("\n"),
    );
    expect(syntaxErrors(text)).toEqual([]);
  });

  it("covers JSON Schema: arrays, nested objects, enums, nullable types, maps, refs, odd keys; MCP-wrapped schemas show their JSON", () => {
    const schema = checkableSchema({
      type: "object",
      properties: {
        edits: {
          type: "array",
          items: {
            type: "object",
            properties: { oldText: { type: "string" }, newText: { type: "string" } },
            required: ["oldText", "newText"],
          },
        },
        sortBy: { type: "string", enum: ["name", "size"], default: "name" },
        limit: { type: ["integer", "null"] },
        labels: { type: "object", additionalProperties: { type: "string" } },
        "content-type": { type: "string", format: "mime" },
        point: { $ref: "#/$defs/point" },
        anything: {},
      },
      required: ["edits"],
      $defs: { point: { type: "object", properties: { x: { type: "number" } } } },
    });
    const text = toolDeclarations([
      { ident: "edit_file", name: "edit-file", description: "Edits */ safely", parameters: schema },
    ]);
    expect(text).toContain('/** (tool "edit-file") Edits * / safely */');
    expect(text).toContain("edits: Array<{\n      oldText: string;\n      newText: string;\n    }>;");
    expect(text).toContain('/** (default: "name") */\n    sortBy?: "name" | "size";');
    expect(text).toContain("limit?: number | null;");
    expect(text).toContain("labels?: {\n      [key: string]: string;\n    };");
    expect(text).toContain('/** (format: mime) */\n    "content-type"?: string;');
    expect(text).toContain("point?: {\n      x?: number;\n    };");
    expect(text).toContain("anything?: unknown;");
    expect(syntaxErrors(text)).toEqual([]);
  });

  it("recursive refs stop at unknown; identifiers are valid and unique", () => {
    const tree = { type: "object", properties: { children: { type: "array", items: { $ref: "#" } } } };
    const text = toolDeclarations([{ ident: "walk", name: "walk", description: "", parameters: tree }]);
    expect(text).toContain("children?: unknown[];");
    expect(syntaxErrors(text)).toEqual([]);
    const taken = new Set<string>();
    expect(["get-sum", "get_sum", "2fa", "ok"].map((n) => identifierFor(n, taken))).toEqual([
      "get_sum",
      "get_sum_2",
      "_2fa",
      "ok",
    ]);
  });
});
